package org.chartstream.core.store;

/**
 * How the ingest named the patient a chunk's row belongs to: the patient number, the display name and, on a row that
 * holds it, the year of birth. Any of them may be {@code null}; a chunk whose row names no patient has no label.
 *
 * @param number the patient's business number as the source writes it ({@code MRN-000001}), or {@code null}
 * @param name the display name ({@code Martha Collins}), or {@code null}
 * @param birthYear the year of birth, or {@code null} when the row does not hold it
 */
public record PatientLabel(String number, String name, Integer birthYear) {

  /** The label of these fields, or {@code null} when all of them are {@code null} (a row without a named patient). */
  public static PatientLabel of(String number, String name, Integer birthYear) {
    return number == null && name == null && birthYear == null ? null : new PatientLabel(number, name, birthYear);
  }

  /**
   * How an answer names the patient: {@code Martha Collins (MRN-000001)}, the name alone, or {@code patient 10014078}
   * for a patient known by number alone (a patient table without name columns); {@code null} with neither.
   */
  public String display() {
    if (name != null) {
      return number == null ? name : name + " (" + number + ")";
    }
    return number == null ? null : "patient " + number;
  }

  /** No name, number or birth year: safe for logs. */
  @Override
  public String toString() {
    return "PatientLabel[number=" + (number != null) + ", name=" + (name != null) + ", birthYear=" + (birthYear != null)
        + "]";
  }
}
