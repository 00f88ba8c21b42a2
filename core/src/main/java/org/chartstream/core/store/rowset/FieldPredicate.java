package org.chartstream.core.store.rowset;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One condition on one of a row's fields ({@link org.chartstream.core.store.StoredChunk#fields}, by column name).
 * Every comparison is case-insensitive ({@link FieldValues}). A field no row has matches nothing (an unknown column
 * is an empty set, not an error), except for {@link Absent}, which every row matches.
 */
public sealed interface FieldPredicate {

  /** The column name. */
  String field();

  /** The decision a store makes, on one row's fields: for tests and for stores that filter in the application. */
  boolean test(Map<String, String> fields);

  /** The field's whole value is one of {@code values}. */
  record AnyOf(String field, Set<String> values) implements FieldPredicate {
    public AnyOf {
      field = checkedField(field);
      Objects.requireNonNull(values, "values");
      values = Set.copyOf(new LinkedHashSet<>(values));
      if (values.isEmpty()) {
        throw new IllegalArgumentException("AnyOf on field '" + field + "' needs at least one value");
      }
    }

    public static AnyOf of(String field, String... values) {
      return new AnyOf(field, Set.of(values));
    }

    /** The values as stores compare them. */
    public Set<String> foldedValues() {
      Set<String> out = new LinkedHashSet<>();
      values.forEach(v -> out.add(FieldValues.folded(v)));
      return out;
    }

    @Override
    public boolean test(Map<String, String> fields) {
      String v = fields.get(field);
      return v != null && foldedValues().contains(FieldValues.folded(v));
    }

    @Override
    public String toString() {
      return "AnyOf[" + field + ", " + values.size() + " value(s)]";
    }
  }

  /**
   * The field's value holds every word of {@code words} as a whole word, in any order: "statin" is not in
   * "atorvastatin", "fibrillation" is in "Atrial fibrillation".
   */
  record HasWords(String field, String words) implements FieldPredicate {
    public HasWords {
      field = checkedField(field);
      Objects.requireNonNull(words, "words");
      if (FieldValues.words(words).isEmpty()) {
        throw new IllegalArgumentException("HasWords on field '" + field + "' needs at least one word");
      }
    }

    public Set<String> foldedWords() {
      return FieldValues.words(words);
    }

    @Override
    public boolean test(Map<String, String> fields) {
      String v = fields.get(field);
      return v != null && FieldValues.words(v).containsAll(foldedWords());
    }

    @Override
    public String toString() {
      return "HasWords[" + field + ", " + foldedWords().size() + " word(s)]";
    }
  }

  /**
   * The field's value lies between {@code from} and {@code to}, compared as text (right for ISO 8601 dates and
   * times), either bound may be {@code null} (open). A value that starts with a bound counts as equal to it, so a time
   * on a bound's day ({@code 2020-12-31T10:00} against {@code 2020-12-31}) is inside an inclusive bound and outside an
   * exclusive one: "in 2020" is {@code from 2020 to 2020}, both inclusive.
   */
  record InRange(String field, String from, boolean fromInclusive, String to, boolean toInclusive)
      implements FieldPredicate {
    public InRange {
      field = checkedField(field);
      from = from == null || from.isBlank() ? null : from.strip();
      to = to == null || to.isBlank() ? null : to.strip();
      if (from == null && to == null) {
        throw new IllegalArgumentException("InRange on field '" + field + "' needs a from or a to bound");
      }
    }

    /** From {@code from} inclusive. */
    public static InRange since(String field, String from) {
      return new InRange(field, from, true, null, false);
    }

    /** Before {@code to} exclusive. */
    public static InRange before(String field, String to) {
      return new InRange(field, null, false, to, false);
    }

    /** The folded lower bound as an engine compares it, with {@link #lowerInclusive()}; null when open. */
    public String lower() {
      return from == null ? null : fromInclusive ? FieldValues.folded(from) : FieldValues.folded(from) + FieldValues.PAST_PREFIX;
    }

    public boolean lowerInclusive() {
      return fromInclusive;
    }

    /** The folded upper bound as an engine compares it, with {@link #upperInclusive()}; null when open. */
    public String upper() {
      return to == null ? null : toInclusive ? FieldValues.folded(to) + FieldValues.PAST_PREFIX : FieldValues.folded(to);
    }

    public boolean upperInclusive() {
      return toInclusive;
    }

    @Override
    public boolean test(Map<String, String> fields) {
      String v = fields.get(field);
      if (v == null) {
        return false;
      }
      String f = FieldValues.folded(v);
      String lo = lower();
      String hi = upper();
      return (lo == null || (lowerInclusive() ? f.compareTo(lo) >= 0 : f.compareTo(lo) > 0))
          && (hi == null || (upperInclusive() ? f.compareTo(hi) <= 0 : f.compareTo(hi) < 0));
    }

    @Override
    public String toString() {
      return "InRange[" + field + ", from " + (from == null ? "open" : fromInclusive ? "inclusive" : "exclusive")
          + ", to " + (to == null ? "open" : toInclusive ? "inclusive" : "exclusive") + "]";
    }
  }

  /** The row has a value for the field. */
  record Present(String field) implements FieldPredicate {
    public Present {
      field = checkedField(field);
    }

    @Override
    public boolean test(Map<String, String> fields) {
      return fields.containsKey(field);
    }
  }

  /** The row has no value for the field ("no stop date"). */
  record Absent(String field) implements FieldPredicate {
    public Absent {
      field = checkedField(field);
    }

    @Override
    public boolean test(Map<String, String> fields) {
      return !fields.containsKey(field);
    }
  }

  private static String checkedField(String field) {
    if (field == null || field.isBlank()) {
      throw new IllegalArgumentException("a field predicate needs a field (column) name");
    }
    return field;
  }
}
