package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.chartstream.core.store.rowset.FieldValues;

/**
 * Links a question's phrase to the concepts of the index's vocabulary: a drug class named by the phrase to every drug
 * of the class ({@link DrugClasses}), a brand name to the drugs holding it or its generic ({@link DrugBrands}); otherwise every value holding each of the phrase's words as a whole word, or as
 * a word of the same stem ("hypothyroid" in "hypothyroidism", "diabetics" in "diabetes", "intubated" in
 * "intubation": a shared beginning of five or more letters that leaves at most two letters of the shorter word and
 * four of the longer, so "coronary" is not "coronavirus"), with
 * "II" and "III" read as 2 and 3 ("type 2" in "type II"); when no value holds them, the values nearest in meaning
 * ({@link ConceptMeanings}), if a model is measured for it. "statin" is not a word of "atorvastatin": the class says so.
 */
public final class ConceptLinker {
    private static final int STEM = 5;
    private static final int STEM_SLACK = 2;
    private static final Map<String, String> ROMAN = Map.of("ii", "2", "iii", "3");

    /**
     * What a phrase linked to.
     *
     * @param values   the concept values it names (empty: nothing linked)
     * @param via      how: {@link #BY_WORDS}, {@link #BY_MEANING} or the drug class's name
     * @param unused   words of the phrase the link did not use (a class phrase's extra words), empty when all were
     */
    public record Link(List<String> values, String via, List<String> unused) {
        public Link {
            values = List.copyOf(values);
            unused = List.copyOf(unused);
        }

        public boolean linked() {
            return !values.isEmpty();
        }
    }

    /** How a link by meaning is named ({@link Link#via}). */
    public static final String BY_MEANING = "similar in meaning";
    /** How a link by words is named. */
    public static final String BY_WORDS = "words";

    private final DrugClasses classes;
    private final DrugBrands brands;
    private final ConceptMeanings meanings;

    /** @param meanings the links by meaning when no value holds a phrase's words, or null for words only */
    public ConceptLinker(DrugClasses classes, DrugBrands brands, ConceptMeanings meanings) {
        this.classes = classes;
        this.brands = brands;
        this.meanings = meanings;
    }

    /** The class a phrase names, if it names one. */
    public Optional<DrugClasses.Named> drugClass(List<String> phrase) {
        return classes.in(phrase);
    }

    /** The values of {@code vocabulary} the phrase names; {@code drugs} says whether the vocabulary is of drugs. */
    public Link link(List<String> phrase, List<String> vocabulary, boolean drugs) {
        Optional<DrugClasses.Named> named = drugs ? classes.in(phrase) : Optional.empty();
        if (named.isPresent()) {
            DrugClasses.DrugClass c = named.get().drugClass();
            List<String> unused = new ArrayList<>(phrase.subList(0, named.get().start()));
            unused.addAll(phrase.subList(named.get().end(), phrase.size()));
            return new Link(vocabulary.stream().filter(c::includes).toList(), c.name(), unused);
        }
        Optional<List<String>> generic = drugs ? brands.generic(phrase) : Optional.empty();
        List<String> values = new ArrayList<>();
        for (String value : vocabulary) {
            Set<String> words = words(value);
            if (holds(words, phrase) || (generic.isPresent() && holds(words, generic.get()))) {
                values.add(value);
            }
        }
        if (generic.isPresent() && !values.isEmpty()) {
            return new Link(values, "brand of " + String.join(" ", generic.get()), List.of());
        }
        if (values.isEmpty() && meanings != null && !vocabulary.isEmpty()) {
            return new Link(meanings.near(String.join(" ", phrase), vocabulary), BY_MEANING, List.of());
        }
        return new Link(values, BY_WORDS, List.of());
    }

    private static boolean holds(Set<String> words, List<String> phrase) {
        return phrase.stream().allMatch(w -> words.stream().anyMatch(v -> sameWord(w, v)));
    }

    private static Set<String> words(String value) {
        Set<String> out = new java.util.LinkedHashSet<>();
        FieldValues.words(value).forEach(w -> out.add(ROMAN.getOrDefault(w, w)));
        return out;
    }

    /** Whether question word {@code w} is value word {@code v}, or the same word of another ending. */
    static boolean sameWord(String w, String v) {
        if (w.equals(v) || v.equals(w + "s") || w.equals(v + "s")) {
            return true;
        }
        int shorter = Math.min(w.length(), v.length());
        int longer = Math.max(w.length(), v.length());
        int shared = 0;
        while (shared < shorter && w.charAt(shared) == v.charAt(shared)) {
            shared++;
        }
        return shared >= STEM && shared >= shorter - STEM_SLACK && shared >= longer - 2 * STEM_SLACK;
    }
}
