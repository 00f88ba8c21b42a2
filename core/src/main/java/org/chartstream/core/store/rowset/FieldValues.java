package org.chartstream.core.store.rowset;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a row's field values are compared, the same in every store: case-insensitively (lowercased in the root
 * locale), by whole values or by whole words (runs of letters and digits), and in ranges by their text.
 */
public final class FieldValues {

  /**
   * Above every character a value may hold after a bound's text: a bound followed by it sorts after every value the
   * bound starts ({@code 2020-12-31T10:00} starts with {@code 2020-12-31}), so a range can treat such a value as
   * equal to its bound.
   */
  public static final String PAST_PREFIX = "\uFFFF";

  private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

  private FieldValues() {}

  /** The value as equality and ranges compare it. */
  public static String folded(String value) {
    return value.toLowerCase(Locale.ROOT);
  }

  /** The whole words of {@code value}, folded, distinct, in order of first occurrence. */
  public static Set<String> words(String value) {
    Set<String> out = new LinkedHashSet<>();
    for (String w : NOT_WORD.split(folded(value))) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }
}
