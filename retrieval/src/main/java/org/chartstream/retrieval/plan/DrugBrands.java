package org.chartstream.retrieval.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chartstream.core.store.rowset.FieldValues;

/**
 * Brand names of generic drugs ("Glucophage" is metformin), from the resource {@code drug-brands.txt}: a question
 * naming a brand asks for the drug under either name, as a hospital's orders write both.
 */
public final class DrugBrands {
    private static final String RESOURCE = "drug-brands.txt";

    private final Map<List<String>, List<String>> generics;

    public DrugBrands(Map<List<String>, List<String>> generics) {
        this.generics = Map.copyOf(generics);
    }

    public static DrugBrands standard() {
        return parse(PlanResources.read(RESOURCE));
    }

    /** Brands from lines {@code brand = generic}; '#' starts a comment. */
    public static DrugBrands parse(List<String> lines) {
        Map<List<String>, List<String>> out = new LinkedHashMap<>();
        for (PlanResources.Line line : PlanResources.meaningful(lines)) {
            int number = line.number();
            String text = line.text();
            String[] sides = text.split("=");
            if (sides.length != 2 || FieldValues.words(sides[0]).isEmpty() || FieldValues.words(sides[1]).isEmpty()) {
                throw new IllegalArgumentException(RESOURCE + " line " + number + ": expected 'brand = generic'");
            }
            out.put(List.copyOf(FieldValues.words(sides[0])), List.copyOf(FieldValues.words(sides[1])));
        }
        return new DrugBrands(out);
    }

    /** The generic's words when the phrase is a brand name (its words exactly), else empty. */
    public Optional<List<String>> generic(List<String> phrase) {
        return Optional.ofNullable(generics.get(phrase));
    }
}
