package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.chartstream.core.store.rowset.FieldValues;

/**
 * The drug classes a question may name ("statin", "ACE inhibitor", "beta blocker"), each by the WHO INN stems of its
 * members and the few names without one, from the resource {@code drug-classes.txt}: general pharmacology, not a
 * dataset. A drug belongs to a class when one word of its name ends with a stem or is a listed name, so "Nystatin" is
 * no statin (the stem is "-vastatin") and "lidocaine-prilocaine" no ACE inhibitor (no word ends in "-pril").
 */
public final class DrugClasses {
    private static final String RESOURCE = "drug-classes.txt";

    /** One class: the phrases that name it (as folded words) and how its members are recognised. */
    public record DrugClass(String name, List<List<String>> phrases, List<String> endings, Set<String> names) {
        public DrugClass {
            phrases = List.copyOf(phrases);
            endings = List.copyOf(endings);
            names = Set.copyOf(names);
        }

        /** Whether the drug (a name as the records write it) belongs to the class. */
        public boolean includes(String drug) {
            for (String word : FieldValues.words(drug)) {
                if (names.contains(word) || endings.stream().anyMatch(e -> word.length() > e.length() && word.endsWith(e))) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A class named in a question, and where: the words {@code [start, end)}. */
    public record Named(DrugClass drugClass, int start, int end) {
    }

    private final List<DrugClass> classes;

    public DrugClasses(List<DrugClass> classes) {
        this.classes = List.copyOf(classes);
    }

    /** The classes of the resource shipped with the pipeline. */
    public static DrugClasses standard() {
        return parse(PlanResources.read(RESOURCE));
    }

    /** Classes from lines {@code phrase, phrase | -ending, name}; '#' starts a comment. */
    public static DrugClasses parse(List<String> lines) {
        List<DrugClass> out = new ArrayList<>();
        for (PlanResources.Line line : PlanResources.meaningful(lines)) {
            int number = line.number();
            String text = line.text();
            String[] sides = text.split("\\|");
            if (sides.length != 2) {
                throw new IllegalArgumentException(RESOURCE + " line " + number + ": expected 'phrases | stems'");
            }
            List<List<String>> phrases = Arrays.stream(sides[0].split(",")).map(p -> List.copyOf(FieldValues.words(p)))
                    .filter(p -> !p.isEmpty()).toList();
            List<String> endings = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (String stem : sides[1].split(",")) {
                String s = FieldValues.folded(stem.strip());
                if (s.startsWith("-") && s.length() > 1) {
                    endings.add(s.substring(1));
                } else if (!s.isEmpty()) {
                    names.add(s);
                }
            }
            out.add(new DrugClass(String.join(" ", phrases.get(0)), phrases, endings, Set.copyOf(names)));
        }
        return new DrugClasses(out);
    }

    /** The class whose longest naming phrase the words hold (earliest on a tie), if any. */
    public Optional<Named> in(List<String> words) {
        Named best = null;
        for (DrugClass c : classes) {
            for (List<String> phrase : c.phrases()) {
                int at = Collections.indexOfSubList(words, phrase);
                if (at >= 0 && (best == null || phrase.size() > best.end() - best.start()
                        || (phrase.size() == best.end() - best.start() && at < best.start()))) {
                    best = new Named(c, at, at + phrase.size());
                }
            }
        }
        return Optional.ofNullable(best);
    }
}
