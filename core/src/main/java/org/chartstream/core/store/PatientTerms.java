package org.chartstream.core.store;

import java.text.Normalizer;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The words a patient is found by in the index ({@link HybridStore#patientsNamed}): letters, digits and inner hyphens
 * ({@code MRN-000001}, {@code Pemberton-Lowe}), folded to lower case without accents ({@code Róss} = {@code ross}),
 * as the scope resolver compares a question's words with names and numbers. Stores index a patient's terms and a
 * question's terms are looked up among them, so both sides fold the same way.
 */
public final class PatientTerms {
  private static final Pattern SEPARATOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}-]+");
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");
  private static final Pattern EDGE_HYPHENS = Pattern.compile("^-+|-+$");

  private PatientTerms() {}

  /** The text's words, each once, in order, folded. */
  public static Set<String> of(String text) {
    Set<String> terms = new LinkedHashSet<>();
    if (text == null) {
      return terms;
    }
    for (String raw : SEPARATOR.split(text)) {
      String word = EDGE_HYPHENS.matcher(raw).replaceAll("");
      if (!word.isEmpty()) {
        terms.add(MARKS.matcher(Normalizer.normalize(word, Normalizer.Form.NFD)).replaceAll("").toLowerCase(Locale.ROOT));
      }
    }
    return terms;
  }

  /**
   * What a chunk's patient is found by: the words of the name, of the number and of the patient key; empty for a
   * chunk without a patient.
   */
  public static Set<String> of(StoredChunk chunk) {
    return of(chunk.patientKey(), chunk.patient());
  }

  /** What a patient is found by: the words of its key and, with a label, of its name and number. */
  public static Set<String> of(String patientKey, PatientLabel label) {
    Set<String> terms = new LinkedHashSet<>(of(patientKey));
    if (label != null) {
      terms.addAll(of(label.name()));
      terms.addAll(of(label.number()));
    }
    return terms;
  }

  /**
   * The order {@link HybridStore#patientsNamed} returns patients in: those holding more of {@code terms} first (a
   * full name before a patient who shares its first name), then by patient key; at most {@code limit}.
   */
  public static List<IndexedPatient> mostMatching(Collection<IndexedPatient> patients, Set<String> terms, int limit) {
    Comparator<IndexedPatient> order = Comparator.comparingLong((IndexedPatient p) ->
        of(p.patientKey(), p.label()).stream().filter(terms::contains).count()).reversed()
        .thenComparing(IndexedPatient::patientKey);
    return patients.stream().sorted(order).limit(limit).toList();
  }
}
