package org.chartstream.runtime.config;

/** A configuration value that is missing or malformed; the message names the key and where it came from. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
