package org.chartstream.runtime.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableBinding;

/**
 * A source's binding file (docs/BINDING.md): one {@code table.<table>.<attribute> = <value>} per line, {@code #}
 * comments and blank lines, tables in file order. Every error is a {@link ConfigException} naming the file, the line
 * and the key, and saying what is wrong.
 */
public final class BindingFile {
    /** The prefix of a binding location that names a classpath resource (a dataset's shipped binding). */
    public static final String CLASSPATH = "classpath:";

    private BindingFile() {
    }

    /** The binding at {@code location}: {@code classpath:<resource>} or a file path (relative: to the working directory). */
    public static SourceBinding read(String location) {
        String text;
        if (location.startsWith(CLASSPATH)) {
            String resource = location.substring(CLASSPATH.length());
            try (InputStream in = BindingFile.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ConfigException("binding file " + location + ": no such classpath resource");
                }
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ConfigException("cannot read binding file " + location + ": " + e.getMessage());
            }
        } else {
            try {
                text = Files.readString(Path.of(location), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ConfigException("cannot read binding file " + location + ": " + e);
            }
        }
        return parse(location, text);
    }

    /** Parses a binding file's text; {@code file} names it in errors. */
    public static SourceBinding parse(String file, String text) {
        Map<String, BoundTable> tables = new LinkedHashMap<>();
        String[] lines = (text.startsWith("\uFEFF") ? text.substring(1) : text).split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            BindingLine at = new BindingLine(file, i + 1, line.contains("=") ? line.substring(0, line.indexOf('=')).strip() : line);
            if (!line.contains("=")) {
                throw at.error("is not 'table.<table>.<attribute> = <value>'");
            }
            String[] parts = at.key().split("\\.", 3);
            if (parts.length < 3 || !parts[0].equals("table") || parts[1].isEmpty() || parts[2].isEmpty()) {
                throw at.error("is not 'table.<table>.<attribute>'");
            }
            if (!BindingValues.IDENTIFIER.matcher(parts[1]).matches()) {
                throw at.error("names table '" + parts[1] + "', which is not a table name (letters, digits, '_', '$')");
            }
            tables.computeIfAbsent(parts[1], t -> new BoundTable(t, at))
                    .set(at, parts[2], line.substring(line.indexOf('=') + 1).strip());
        }
        if (tables.isEmpty()) {
            throw new ConfigException("binding file " + file + " binds no table");
        }
        List<TableBinding> bound = new ArrayList<>();
        for (BoundTable table : tables.values()) {
            bound.add(table.binding(tables));
        }
        try {
            return SourceBinding.of(bound);
        } catch (IllegalArgumentException e) {
            // the checks above name the line; SourceBinding's own are the backstop (at most one patient table)
            throw new ConfigException("binding file " + file + ": " + e.getMessage());
        }
    }

    /** Where a key is: file, line and key, for the error message. */
    record BindingLine(String file, int line, String key) {
        ConfigException error(String what) {
            return new ConfigException("binding file " + file + ", line " + line + ", key '" + key + "': " + what);
        }
    }
}
