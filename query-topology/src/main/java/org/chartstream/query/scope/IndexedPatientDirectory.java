package org.chartstream.query.scope;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.SearchHit;
import org.chartstream.retrieval.PatientScope.PatientCandidate;
import org.chartstream.retrieval.scope.PatientDirectory;

/**
 * The patient directory read from the index itself: the patient table's rows as the ingest projected them (header
 * {@code patient: Name (number)}, a {@code birth date: YYYY-…} field), found by a lexical search for the text's
 * words within that table. Because it is the index's active generation, a patient's update or delete shows at the
 * store commit that applies it, with no copy to keep in step.
 *
 * <p>The words are searched as written and, where they differ, with accents removed, so a question's
 * {@code Róss} finds an indexed {@code Ross} whether or not the store folds accents.
 */
public final class IndexedPatientDirectory implements PatientDirectory {
    /** Rows asked of the lexical search: more than any name is shared by, in the synthetic data sets (50–500 patients). */
    static final int DEPTH = 50;
    private static final Pattern HEADER = Pattern.compile("(?m)^patient: (.+?)(?: \\(([^()]+)\\))?$");
    private static final Pattern BIRTH = Pattern.compile("(?im)^(?:birth ?date|date of birth|dob): *(\\d{4})");
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern SEPARATOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}-]+");

    private final HybridStore store;
    private final String patientTable;

    public IndexedPatientDirectory(HybridStore store, String patientTable) {
        this.store = Objects.requireNonNull(store, "store");
        this.patientTable = Objects.requireNonNull(patientTable, "patientTable");
    }

    @Override
    public List<PatientCandidate> mentionedIn(String text) {
        String query = searchWords(text);
        if (query.isEmpty()) {
            return List.of();
        }
        Map<String, PatientCandidate> patients = new LinkedHashMap<>();
        for (SearchHit hit : store.lexicalSearch(query, DEPTH, RetrievalFilter.forTables(patientTable))) {
            PatientCandidate c = candidate(hit);
            if (c != null) {
                patients.putIfAbsent(c.patientKey(), c);
            }
        }
        return new ArrayList<>(patients.values());
    }

    private static PatientCandidate candidate(SearchHit hit) {
        String text = hit.chunk().text();
        Matcher header = HEADER.matcher(text);
        if (!header.find()) {
            return null;
        }
        String number = header.group(2);
        String key = hit.chunk().patientKey() != null ? hit.chunk().patientKey() : number;
        if (key == null) {
            return null;
        }
        Matcher birth = BIRTH.matcher(text);
        return new PatientCandidate(key, header.group(1).strip(), number, birth.find() ? Integer.valueOf(birth.group(1)) : null);
    }

    /** Each word once, as written and without accents; no quotes, so nothing is read as a phrase. */
    static String searchWords(String text) {
        Set<String> words = new LinkedHashSet<>();
        for (String word : SEPARATOR.split(text)) {
            if (!word.isBlank()) {
                words.add(word);
                words.add(MARKS.matcher(Normalizer.normalize(word, Normalizer.Form.NFD)).replaceAll(""));
            }
        }
        return String.join(" ", words);
    }
}
