package org.chartstream.datasets;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Code tables shipped under {@code resources/dataset/}: the curated SNOMED CT to ICD-10-CM map used to fill
 * {@code conditions.icd10_code}, and the Synthea social/administrative findings left out of {@code conditions}.
 */
public final class ClinicalCodes {

    public static final String ICD10_RESOURCE = "/dataset/snomed-icd10.csv";
    public static final String EXCLUDED_RESOURCE = "/dataset/excluded-conditions.csv";

    private static final Map<String, String> ICD10 = Collections.unmodifiableMap(read(ICD10_RESOURCE, 1));
    private static final Set<String> EXCLUDED = Collections.unmodifiableSet(read(EXCLUDED_RESOURCE, 1).keySet());

    private ClinicalCodes() {
    }

    /** SNOMED CT code to ICD-10-CM code (unmapped codes are absent). */
    public static Map<String, String> snomedToIcd10() {
        return ICD10;
    }

    /** The ICD-10-CM code for a SNOMED CT code, or null. */
    public static String icd10(String snomedCode) {
        return snomedCode == null ? null : ICD10.get(snomedCode);
    }

    /** SNOMED codes of Synthea findings that are social determinants or administrative, not diagnoses. */
    public static Set<String> excludedConditionCodes() {
        return EXCLUDED;
    }

    /** Reads "key,value,..." lines (after a header line; '#' lines are comments) into key -> column {@code col}. */
    private static Map<String, String> read(String resource, int col) {
        Map<String, String> out = new LinkedHashMap<>();
        try (InputStream in = ClinicalCodes.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            boolean header = true;
            for (String line; (line = r.readLine()) != null; ) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                if (header) {
                    header = false;
                    continue;
                }
                String[] parts = line.split(",", col + 2);
                if (parts.length <= col) {
                    throw new IllegalStateException("malformed line in " + resource + ": " + line);
                }
                if (out.put(parts[0].strip(), parts[col].strip()) != null) {
                    throw new IllegalStateException("duplicate code " + parts[0] + " in " + resource);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
