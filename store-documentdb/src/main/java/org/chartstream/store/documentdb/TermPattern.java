package org.chartstream.store.documentdb;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code $regex} an exact-term lookup matches chunk text with: the term's words as whole words (a code's dot
 * stays inside it, so {@code E11.9} matches neither {@code E11.91} nor {@code E11}), in order, separated by anything
 * that is not a letter or digit, case-insensitive, and with every letter standing for its accented forms as well: the
 * term is folded to ASCII and each letter becomes a class of the Latin letters that fold to it, which is how the
 * Lucene store's analyzer folds both sides.
 */
final class TermPattern {

  private static final String ALNUM = "\\p{L}\\p{N}";
  private static final Pattern WORDS = Pattern.compile("[^" + ALNUM + ".]+");
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");
  private static final Pattern EDGE_DOTS = Pattern.compile("^\\.+|\\.+$");
  /** Lower-case ASCII letter → its Latin-1 and Latin Extended-A/B forms (both cases are matched by the i flag). */
  private static final Map<Character, String> ACCENTED = accentedForms();

  private TermPattern() {}

  /** The regex, or {@code null} when the term has no letter or digit. */
  static String of(String term) {
    return pattern(fold(term), true);
  }

  /**
   * A regex that matches wherever the term's first {@code maxChars} folded characters stand at the start of a word,
   * so everywhere the whole term matches too (and maybe elsewhere); {@code null} when they hold no letter or digit.
   */
  static String prefixOf(String term, int maxChars) {
    String folded = fold(term);
    return pattern(folded.substring(0, Math.min(maxChars, folded.length())), false);
  }

  private static String pattern(String folded, boolean wholeWordAtTheEnd) {
    List<String> words = new ArrayList<>();
    for (String w : WORDS.split(folded)) {
      String trimmed = EDGE_DOTS.matcher(w).replaceAll("");
      if (!trimmed.isEmpty()) {
        words.add(trimmed);
      }
    }
    if (words.isEmpty()) {
      return null;
    }
    StringBuilder regex = new StringBuilder("(?<![" + ALNUM + "]|[" + ALNUM + "]\\.)");
    for (int i = 0; i < words.size(); i++) {
      if (i > 0) {
        regex.append("[^").append(ALNUM).append("]+");
      }
      for (char c : words.get(i).toCharArray()) {
        String forms = ACCENTED.get(c);
        regex.append(forms != null ? "[" + c + forms + "]" : c == '.' ? "\\." : Pattern.quote(String.valueOf(c)));
      }
    }
    if (wholeWordAtTheEnd) {
      regex.append("(?![").append(ALNUM).append("]|\\.[").append(ALNUM).append("])");
    }
    return regex.toString();
  }

  /** Lower case, accents removed. */
  static String fold(String s) {
    return MARKS.matcher(Normalizer.normalize(s, Normalizer.Form.NFD)).replaceAll("").toLowerCase(Locale.ROOT);
  }

  private static Map<Character, String> accentedForms() {
    Map<Character, StringBuilder> forms = new HashMap<>();
    for (char c = '\u00C0'; c <= '\u024F'; c++) {
      String base = fold(String.valueOf(c));
      if (base.length() == 1 && base.charAt(0) >= 'a' && base.charAt(0) <= 'z') {
        forms.computeIfAbsent(base.charAt(0), k -> new StringBuilder()).append(c);
      }
    }
    Map<Character, String> out = new HashMap<>();
    forms.forEach((k, v) -> out.put(k, v.toString()));
    return Map.copyOf(out);
  }
}
