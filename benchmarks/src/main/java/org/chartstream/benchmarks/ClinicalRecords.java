package org.chartstream.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToIntFunction;
import org.chartstream.models.TokenChunker;

/**
 * Synthetic record texts in the shape the ingest indexes ({@code RowProjector}: a {@code record:}/{@code patient:}
 * header, then {@code field: value} lines; notes in the ACI-Bench section layout). Every text is a pure function of
 * the {@link Random} it is given, so each benchmark fork measures the same inputs.
 */
final class ClinicalRecords {
    /** A synthetic patient as the header names one. */
    record Patient(String name, String number, String pronoun, String possessive) {
    }

    /** A condition with its ICD-10 code, and a drug that treats it. */
    private record Condition(String name, String code, String drug) {
    }

    static final List<Patient> PATIENTS = List.of(
            new Patient("Martha Collins", "MRN-000123", "She", "Her"),
            new Patient("Thaddeus Fairweather", "MRN-000417", "He", "His"),
            new Patient("Clementine Pemberton-Lowe", "MRN-000982", "She", "Her"),
            new Patient("Rafael Okonkwo", "MRN-001206", "He", "His"));

    private static final List<Condition> CONDITIONS = List.of(
            new Condition("type 2 diabetes mellitus", "E11.9", "metformin 500 mg twice daily"),
            new Condition("essential hypertension", "I10", "lisinopril 10 mg daily"),
            new Condition("chronic obstructive pulmonary disease (COPD)", "J44.9", "tiotropium 18 mcg inhaled daily"),
            new Condition("hyperlipidemia", "E78.5", "atorvastatin 40 mg at bedtime"),
            new Condition("chronic kidney disease stage 3", "N18.3", "empagliflozin 10 mg daily"),
            new Condition("mild persistent asthma", "J45.30", "albuterol 90 mcg two puffs as needed"),
            new Condition("major depressive disorder", "F32.9", "sertraline 50 mg daily"));

    private static final String[] SECTIONS = {"CHIEF COMPLAINT", "HISTORY OF PRESENT ILLNESS", "REVIEW OF SYSTEMS",
        "PHYSICAL EXAMINATION", "RESULTS", "ASSESSMENT AND PLAN"};
    private static final String[] SYMPTOMS = {"shortness of breath on exertion", "intermittent dry cough",
        "fatigue in the afternoons", "increased thirst and frequent urination", "morning headaches",
        "swelling of both ankles", "poor sleep", "wheezing at night"};

    private ClinicalRecords() {
    }

    /** The header every chunk of a row repeats. */
    static String header(String table, Patient p) {
        return "record: " + table.replace('_', ' ') + "\npatient: " + p.name() + " (" + p.number() + ")";
    }

    /** A note row's body: its fields, the note text last, of at least {@code minTokens} tokens under {@code counter}. */
    static String noteBody(Random r, Patient p, int minTokens, ToIntFunction<String> counter) {
        String fields = "note type: progress note\nencounter date: " + date(r) + "\nauthor: attending physician\nnote text: ";
        List<StringBuilder> sections = new ArrayList<>();
        for (String title : SECTIONS) {
            sections.add(new StringBuilder(title).append("\n\n"));
        }
        String body;
        do {
            for (int s = 0; s < SECTIONS.length; s++) {
                sections.get(s).append(sentence(r, p, s)).append(' ');
            }
            body = fields + String.join("\n\n", sections.stream().map(b -> b.toString().strip()).toList());
        } while (counter.applyAsInt(body) < minTokens);
        return body;
    }

    /**
     * The chunks of a note of about {@code tokens} tokens (counted by {@code counter}) for patient 1, cut by
     * {@code chunker} under the clinical-notes header as the ingest cuts it; the same text for the same seed.
     */
    static List<String> noteChunks(TokenChunker chunker, ToIntFunction<String> counter, int tokens) {
        Patient patient = PATIENTS.get(1);
        String body = noteBody(new Random(11), patient, tokens, counter);
        return List.copyOf(chunker.chunkUnderHeader(header("clinical_notes", patient), body));
    }

    /** A one-chunk row of a structured table: a condition, a medication or an encounter. */
    static String structuredBody(Random r, String table) {
        Condition c = pick(r, CONDITIONS);
        return switch (table) {
            case "conditions" -> "description: " + c.name() + "\ncode: " + c.code() + "\nonset: " + date(r)
                    + "\nstatus: active";
            case "medications" -> "description: " + c.drug() + "\nreason: " + c.name() + " (" + c.code() + ")"
                    + "\nstart: " + date(r) + "\nprescriber: primary care";
            default -> "type: ambulatory follow-up\ndate: " + date(r) + "\nreason: " + c.name()
                    + "\nprovider: internal medicine clinic";
        };
    }

    private static String sentence(Random r, Patient p, int section) {
        Condition c = pick(r, CONDITIONS);
        String symptom = SYMPTOMS[r.nextInt(SYMPTOMS.length)];
        return switch (section) {
            case 0 -> "Follow-up of " + c.name() + "; reports " + symptom + ".";
            case 1 -> switch (r.nextInt(4)) {
                case 0 -> p.name() + " is a " + (45 + r.nextInt(40)) + "-year-old patient who presents for follow-up of "
                        + c.name() + ".";
                case 1 -> p.pronoun() + " reports " + symptom + " for the past " + (2 + r.nextInt(20)) + " days.";
                case 2 -> p.pronoun() + " has been taking " + c.drug() + " and reports good adherence.";
                default -> p.possessive() + " home blood glucose readings range from " + (95 + r.nextInt(40)) + " to "
                        + (140 + r.nextInt(80)) + " mg/dL in the morning.";
            };
            case 2 -> r.nextBoolean() ? "Respiratory: reports " + symptom + "; denies hemoptysis."
                    : "Cardiovascular: denies chest pain or palpitations. Constitutional: denies fevers or chills.";
            case 3 -> "Vitals: BP " + (112 + r.nextInt(40)) + "/" + (68 + r.nextInt(25)) + " mmHg, HR " + (58 + r.nextInt(40))
                    + ", SpO2 " + (91 + r.nextInt(8)) + "% on room air. Lungs: "
                    + (r.nextBoolean() ? "scattered expiratory wheezes." : "clear to auscultation bilaterally.");
            case 4 -> "HbA1c " + (6 + r.nextInt(4)) + "." + r.nextInt(10) + "% on " + date(r) + "; creatinine "
                    + (0.7 + r.nextInt(12) / 10.0) + " mg/dL; FEV1 " + (48 + r.nextInt(45)) + "% of predicted.";
            default -> c.name() + " (" + c.code() + "): " + (r.nextBoolean() ? "continue " : "start ") + c.drug()
                    + ". Follow up in " + (2 + r.nextInt(10)) + " weeks; patient education provided.";
        };
    }

    private static String date(Random r) {
        return String.format("%d-%02d-%02d", 2018 + r.nextInt(7), 1 + r.nextInt(12), 1 + r.nextInt(28));
    }

    static <T> T pick(Random r, List<T> items) {
        return items.get(r.nextInt(items.size()));
    }
}
