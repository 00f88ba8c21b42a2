package org.chartstream.query.request;

import java.text.Normalizer;

/**
 * A question as the pipeline searches it. Unicode NFC; format characters (category Cf: zero-width space and joiners,
 * word joiner, byte order mark, soft hyphen, bidirectional marks) and other default-ignorable characters (variation
 * selectors, the combining grapheme joiner, Hangul fillers) removed; control characters (Cc: NUL, tabs, line breaks)
 * and every kind of white space become one space; trimmed. A question that is empty after this holds nothing to
 * search for. Lengths are counted in code points (what a user calls characters), not UTF-16 units.
 */
public final class QuestionText {
    private QuestionText() {
    }

    public static String normalise(String raw) {
        StringBuilder out = new StringBuilder(raw.length());
        boolean space = false;
        for (int i = 0; i < raw.length(); ) {
            int cp = raw.codePointAt(i);
            i += Character.charCount(cp);
            if (invisible(cp)) {
                continue;
            }
            if (Character.getType(cp) == Character.CONTROL || Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
                space = out.length() > 0;
                continue;
            }
            if (space) {
                out.append(' ');
                space = false;
            }
            out.appendCodePoint(cp);
        }
        return Normalizer.normalize(out, Normalizer.Form.NFC);
    }

    /** Code points, not UTF-16 units: an emoji or a CJK extension character counts once. */
    public static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    private static boolean invisible(int cp) {
        int type = Character.getType(cp);
        return type == Character.FORMAT || type == Character.SURROGATE || type == Character.UNASSIGNED
                || cp == 0x034F || cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 || cp == 0x17B4 || cp == 0x17B5
                || (cp >= 0x180B && cp <= 0x180F) || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF);
    }
}
