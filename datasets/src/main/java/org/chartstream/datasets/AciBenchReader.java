package org.chartstream.datasets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads the aci-bench challenge data ({@code challenge_data/*_metadata.csv} joined with the note files on
 * {@code encounter_id}) and groups the encounters into distinct patients by cleaned (first name, family name).
 */
public final class AciBenchReader {

    /** One aci-bench encounter: its note and the metadata row. */
    public record AciNote(String encounterId, String chiefComplaint, String secondaryComplaints, String noteText) {
    }

    /**
     * A distinct aci-bench patient. {@code gender} is {@code female}, {@code male} or null; the age (from the
     * patient's first encounter) is in years, or in months for infants ({@code ageMonths}), or unknown (both null).
     * Notes are in encounter-id order.
     */
    public record AciPatient(String firstName, String lastName, String gender, Integer ageYears, Integer ageMonths,
                             List<AciNote> notes) {
        public AciPatient {
            notes = List.copyOf(notes);
        }

        public String fullName() {
            return firstName + " " + lastName;
        }
    }

    private static final Pattern USABLE_NAME = Pattern.compile("\\p{L}[\\p{L} .'\\-]*");
    private static final Pattern MONTHS = Pattern.compile("(\\d+)\\s*-?\\s*months?", Pattern.CASE_INSENSITIVE);
    private static final Pattern YEARS = Pattern.compile("(\\d+)(?:\\.0+)?");

    private AciBenchReader() {
    }

    /** {@code <dir>/challenge_data}, or a clear error naming the path when it is missing. */
    public static Path challengeDataDir(Path aciBenchDir) {
        Path abs = aciBenchDir.toAbsolutePath().normalize();
        Path data = abs.resolve("challenge_data");
        if (!Files.isDirectory(data)) {
            throw new IllegalStateException("aci-bench data not found: " + data + " does not exist (expected the"
                    + " aci-bench folder with challenge_data/*_metadata.csv at " + abs + "; set "
                    + DatasetSpec.ENV_ACI_BENCH_DIR + " or DatasetSpec.aciBenchDir to its location)");
        }
        return data;
    }

    /** Distinct patients, ordered by their first aci-bench encounter id (D2N001 first). */
    public static List<AciPatient> readPatients(Path aciBenchDir) {
        Path data = challengeDataDir(aciBenchDir);
        List<Path> metadataFiles = list(data, "_metadata.csv");
        if (metadataFiles.isEmpty()) {
            throw new IllegalStateException("aci-bench data not found: no *_metadata.csv in " + data);
        }
        Map<String, String> notesById = new LinkedHashMap<>();
        for (Path f : list(data, ".csv")) {
            if (f.getFileName().toString().endsWith("_metadata.csv")) {
                continue;
            }
            for (Map<String, String> row : readCsv(f)) {
                String id = trim(row.get("encounter_id"));
                String note = row.get("note");
                if (id != null && note != null && !note.isBlank()) {
                    notesById.put(id, note.strip());
                }
            }
        }
        List<Map<String, String>> meta = new ArrayList<>();
        for (Path f : metadataFiles) {
            meta.addAll(readCsv(f));
        }
        meta.removeIf(r -> trim(r.get("encounter_id")) == null);
        meta.sort(Comparator.comparing((Map<String, String> r) -> encounterOrder(r.get("encounter_id").trim()))
                .thenComparing(r -> r.get("encounter_id").trim()));

        Map<String, Builder> byName = new LinkedHashMap<>();
        for (Map<String, String> r : meta) {
            String first = cleanName(r.get("patient_firstname"));
            String last = cleanName(r.get("patient_familyname"));
            String id = r.get("encounter_id").trim();
            String note = notesById.get(id);
            if (first == null || last == null || note == null) {
                continue;
            }
            String key = first.toLowerCase(Locale.ROOT) + "\u0000" + last.toLowerCase(Locale.ROOT);
            Builder b = byName.computeIfAbsent(key, k -> new Builder(first, last));
            if (b.gender == null) {
                b.gender = gender(r.get("patient_gender"));
            }
            if (b.ageYears == null && b.ageMonths == null) {
                parseAge(r.get("patient_age"), b);
            }
            b.notes.add(new AciNote(id, trim(r.get("cc")), trim(r.get("2nd_complaints")), note));
        }
        return byName.values().stream()
                .map(b -> new AciPatient(b.first, b.last, b.gender, b.ageYears, b.ageMonths, b.notes))
                .collect(Collectors.toList());
    }

    /** A short fingerprint of the challenge data files (names and sizes), for cache validation. */
    public static String fingerprint(Path aciBenchDir) {
        Path data = challengeDataDir(aciBenchDir);
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Path f : list(data, ".csv")) {
                md.update((f.getFileName() + ":" + Files.size(f) + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads a CSV file with a header row (RFC 4180 quoting, multi-line fields) into maps keyed by header. */
    static List<Map<String, String>> readCsv(Path file) {
        return Csv.readWithHeader(file);
    }

    /**
     * Trims, collapses inner whitespace, and title-cases names written all in lower (or upper) case; null when the
     * result is empty or not a plausible name (digits, punctuation).
     */
    static String cleanName(String raw) {
        if (raw == null) {
            return null;
        }
        String s = String.join(" ", raw.trim().split("\\s+"));
        if (s.isEmpty() || !USABLE_NAME.matcher(s).matches()) {
            return null;
        }
        if (s.equals(s.toLowerCase(Locale.ROOT)) || s.equals(s.toUpperCase(Locale.ROOT))) {
            StringBuilder sb = new StringBuilder(s.length());
            boolean start = true;
            for (char c : s.toLowerCase(Locale.ROOT).toCharArray()) {
                sb.append(start ? Character.toUpperCase(c) : c);
                start = c == ' ' || c == '-' || c == '\'';
            }
            s = sb.toString();
        }
        return s;
    }

    static String gender(String raw) {
        String g = trim(raw);
        if (g == null) {
            return null;
        }
        g = g.toLowerCase(Locale.ROOT);
        if (g.equals("female") || g.equals("f")) {
            return "female";
        }
        if (g.equals("male") || g.equals("m")) {
            return "male";
        }
        return null;
    }

    private static void parseAge(String raw, Builder b) {
        String a = trim(raw);
        if (a == null) {
            return;
        }
        Matcher m = MONTHS.matcher(a);
        if (m.matches()) {
            int months = Integer.parseInt(m.group(1));
            if (months >= 24) {
                b.ageYears = months / 12;
            } else {
                b.ageMonths = months;
            }
            return;
        }
        m = YEARS.matcher(a);
        if (m.matches()) {
            int years = Integer.parseInt(m.group(1));
            if (years <= 120) {
                b.ageYears = years;
            }
        }
    }

    private static int encounterOrder(String encounterId) {
        String digits = encounterId.replaceAll("\\D", "");
        return digits.isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(digits.length() > 9
                ? digits.substring(digits.length() - 9) : digits);
    }

    private static String trim(String s) {
        if (s == null) {
            return null;
        }
        String t = s.strip();
        return t.isEmpty() ? null : t;
    }

    private static List<Path> list(Path dir, String suffix) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix) && Files.isRegularFile(p))
                    .sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static final class Builder {
        final String first;
        final String last;
        String gender;
        Integer ageYears;
        Integer ageMonths;
        final List<AciNote> notes = new ArrayList<>();

        Builder(String first, String last) {
            this.first = first;
            this.last = last;
        }
    }
}
