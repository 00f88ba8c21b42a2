package org.chartstream.app.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads samples out of a Prometheus text exposition: {@code name{label="v",...} value}. */
record PrometheusText(String text) {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** Every sample of the metric whose labels include {@code labels}, keyed by its full label set. */
    Map<Map<String, String>, Double> samples(String name, Map<String, String> labels) {
        Map<Map<String, String>, Double> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (line.startsWith("#") || !m.find() || !m.group(1).equals(name)) {
                continue;
            }
            Map<String, String> own = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    own.put(l.group(1), l.group(2));
                }
            }
            if (own.entrySet().containsAll(labels.entrySet())) {
                out.put(own, Double.parseDouble(m.group(3)));
            }
        }
        return out;
    }

    /** The one sample of the metric with these labels; fails if there is none or several. */
    double value(String name, Map<String, String> labels) {
        Map<Map<String, String>, Double> found = samples(name, labels);
        if (found.size() != 1) {
            throw new AssertionError("expected one sample of " + name + labels + ", found " + found.keySet());
        }
        return found.values().iterator().next();
    }
}
