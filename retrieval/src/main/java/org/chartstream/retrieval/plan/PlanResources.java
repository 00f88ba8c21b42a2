package org.chartstream.retrieval.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The plan's word lists shipped beside it: their lines, numbered, without blank lines and '#' comments. */
final class PlanResources {
    /** One meaningful line of a resource and its line number (for errors). */
    record Line(int number, String text) {
    }

    private PlanResources() {
    }

    /** The lines of resource {@code name} beside this class. */
    static List<String> read(String name) {
        try (InputStream in = PlanResources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines that say something: stripped, neither blank nor a '#' comment, with their numbers. */
    static List<Line> meaningful(List<String> lines) {
        List<Line> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (!text.isEmpty() && !text.startsWith("#")) {
                out.add(new Line(i + 1, text));
            }
        }
        return out;
    }
}
