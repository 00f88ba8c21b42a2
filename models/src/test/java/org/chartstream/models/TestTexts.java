package org.chartstream.models;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Deterministic synthetic clinical-looking text for tests and the throughput measurement. */
final class TestTexts {
    private TestTexts() {}

    private static final String[] WORDS = (
            "patient presents with acute chest pain radiating to left arm shortness of breath diaphoresis "
            + "history of hypertension type two diabetes mellitus hyperlipidemia chronic kidney disease stage three "
            + "medications include metformin lisinopril atorvastatin aspirin daily blood pressure heart rate "
            + "oxygen saturation on room air electrocardiogram shows sinus rhythm without ST elevation troponin "
            + "negative twice serum creatinine potassium sodium within normal limits plan admit for observation "
            + "cardiology consult stress test in the morning continue home medications monitor glucose closely "
            + "follow up with primary care physician in two weeks discussed risks benefits alternatives")
            .split(" ");

    /** {@code count} passages of about {@code words} words each (a few sentences, sometimes a line break). */
    static List<String> passages(int count, int words, long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(passage(r, words));
        }
        return out;
    }

    static String passage(Random r, int words) {
        StringBuilder sb = new StringBuilder();
        int inSentence = 0;
        for (int w = 0; w < words; w++) {
            String word = WORDS[r.nextInt(WORDS.length)];
            if (inSentence == 0) {
                word = Character.toUpperCase(word.charAt(0)) + word.substring(1);
            }
            sb.append(word);
            inSentence++;
            if (w == words - 1 || (inSentence > 6 && r.nextInt(8) == 0)) {
                sb.append('.');
                inSentence = 0;
                sb.append(r.nextInt(6) == 0 ? "\n" : " ");
            } else {
                sb.append(r.nextInt(20) == 0 ? ", " : " ");
            }
        }
        return sb.toString().trim();
    }
}
