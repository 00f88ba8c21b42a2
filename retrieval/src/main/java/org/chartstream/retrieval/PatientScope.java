package org.chartstream.retrieval;

import java.util.List;
import java.util.Objects;

/**
 * Which patient a run was restricted to and how that was decided, for the audit; on a clarification, the patients
 * the question could be about.
 *
 * @param source     how the scope was decided
 * @param patientKey the patient the run was restricted to, or {@code null} when it was not restricted to one
 * @param candidates on {@link Source#AMBIGUOUS}: the patients to choose from; empty otherwise
 */
public record PatientScope(Source source, String patientKey, List<PatientCandidate> candidates) {

    public enum Source {
        /** Not restricted to a patient. */
        NONE,
        /** The request's own filter named the patient. */
        REQUEST,
        /** The question named exactly one patient. */
        NAMED,
        /** The question names a patient by a number no indexed patient has: the reply refuses, naming it. */
        UNKNOWN,
        /** A follow-up with no patient of its own: the previous turn's patient. */
        INHERITED,
        /** Several patients (or, for a follow-up, none) fit: the reply asks which. */
        AMBIGUOUS
    }

    /**
     * One patient a question could be about.
     *
     * @param name      {@code null} for a patient known by number alone (a patient table without name columns)
     * @param birthYear {@code null} when the record has none
     */
    public record PatientCandidate(String patientKey, String name, String patientNumber, Integer birthYear) {
        public PatientCandidate {
            Objects.requireNonNull(patientKey, "patientKey");
            if (name == null && patientNumber == null) {
                throw new IllegalArgumentException("a patient candidate needs a name or a patient number");
            }
        }

        /** How a reply names the patient: the name, or {@code patient <number>} for a patient known by number alone. */
        public String display() {
            return name != null ? name : "patient " + patientNumber;
        }
    }

    public static final PatientScope NONE = new PatientScope(Source.NONE, null, List.of());

    public PatientScope {
        Objects.requireNonNull(source, "source");
        candidates = List.copyOf(candidates);
    }

    /** For the audit: the source and the patient key (the audit topic holds evidence, logs never do). */
    public String describe() {
        return switch (source) {
            case NONE -> "none";
            case UNKNOWN -> "unknown: the question names a patient number no indexed patient has";
            case AMBIGUOUS -> "ambiguous: " + candidates.size() + " candidate patients";
            default -> source.name().toLowerCase(java.util.Locale.ROOT) + ": patient " + patientKey;
        };
    }
}
