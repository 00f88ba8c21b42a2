package org.chartstream.ingest.normalize;

/** A change event that cannot be turned into a {@code RowChange}; the message names what is wrong. */
public class MalformedChangeException extends RuntimeException {
    public MalformedChangeException(String message) {
        super(message);
    }

    public MalformedChangeException(String message, Throwable cause) {
        super(message, cause);
    }
}
