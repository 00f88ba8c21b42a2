package org.chartstream.core.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a row's text from consecutive chunks. The ingest repeats the row's header lines (record type, patient) at
 * the top of every chunk and lets consecutive chunks overlap by some tokens; rejoined, the header appears once and the
 * overlap once.
 */
public final class RowTextRejoiner {
    /**
     * Shorter suffix/prefix matches are taken for coincidence, not overlap; a real overlap of a few dozen tokens is
     * far longer.
     */
    static final int MIN_OVERLAP_CHARS = 12;

    private RowTextRejoiner() {
    }

    /** The chunks' texts, in chunk order, as one text. */
    public static String rejoin(List<String> chunkTexts) {
        if (chunkTexts.isEmpty()) {
            return "";
        }
        if (chunkTexts.size() == 1) {
            return chunkTexts.get(0);
        }
        List<List<String>> lines = new ArrayList<>();
        for (String text : chunkTexts) {
            lines.add(List.of(text.split("\n", -1)));
        }
        int header = sharedHeaderLines(lines);
        StringBuilder body = new StringBuilder();
        for (List<String> chunkLines : lines) {
            String piece = String.join("\n", chunkLines.subList(header, chunkLines.size())).strip();
            if (body.length() == 0) {
                body.append(piece);
                continue;
            }
            int overlap = overlap(body, piece);
            if (overlap > 0) {
                body.append(piece, overlap, piece.length());
            } else {
                body.append('\n').append(piece);
            }
        }
        String headerText = String.join("\n", lines.get(0).subList(0, header));
        return header == 0 ? body.toString() : headerText + "\n" + body;
    }

    /** Leading lines equal in every chunk, leaving every chunk at least one line of its own. */
    private static int sharedHeaderLines(List<List<String>> lines) {
        int shortest = Integer.MAX_VALUE;
        for (List<String> l : lines) {
            shortest = Math.min(shortest, l.size());
        }
        int header = 0;
        while (header < shortest - 1) {
            String line = lines.get(0).get(header);
            int h = header;
            if (line.isBlank() || !lines.stream().allMatch(l -> l.get(h).equals(line))) {
                break;
            }
            header++;
        }
        return header;
    }

    /** Length of the longest suffix of {@code before} that is a prefix of {@code next}, if long enough to be real. */
    private static int overlap(CharSequence before, String next) {
        int max = Math.min(before.length(), next.length());
        String tail = before.subSequence(before.length() - max, before.length()).toString();
        for (int length = max; length >= MIN_OVERLAP_CHARS; length--) {
            if (tail.regionMatches(max - length, next, 0, length)) {
                return length;
            }
        }
        return 0;
    }
}
