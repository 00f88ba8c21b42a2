package org.chartstream.datasets;

import org.mitre.synthea.engine.Generator;
import org.mitre.synthea.export.CSVExporter;
import org.mitre.synthea.helpers.Config;
import org.mitre.synthea.world.agents.Person;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Runs Synthea in-process, one person at a time in a fixed order, and writes its CSV export (patients, encounters,
 * conditions, medications) into a folder.
 *
 * <p>Determinism: population and clinician seeds are the spec's seed, each person has a seed derived from the spec's
 * seed and its index, the simulation ends at the fixed {@link DatasetSpec#REFERENCE_DATE}, and persons are generated
 * sequentially on the calling thread (Synthea's clinician random stream is shared by all persons, so a thread pool
 * would make the output depend on scheduling).
 *
 * <p>Synthea's configuration and its CSV exporter are JVM-wide singletons: runs are serialised, and the exporter is
 * re-initialised (through its package-private {@code init()}) for each run so that a second run in the same JVM
 * writes to its own folder. Synthea prints to {@code System.out}; that stream is silenced during a run.
 */
final class SyntheaRunner {

    /** What to generate for one person: Synthea's gender ("F"/"M") and age in years, either may be null (random). */
    record PersonPlan(int index, long seed, String gender, Integer ageYears) {
    }

    static final List<String> CSV_FILES = List.of("patients.csv", "encounters.csv", "conditions.csv",
            "medications.csv");

    private static final Object LOCK = new Object();

    private SyntheaRunner() {
    }

    /** The per-person Synthea seed: a SplitMix64 hash of the dataset seed and the person's index. */
    static long personSeed(long seed, int index) {
        long z = seed * 0x9E3779B97F4A7C15L + (index + 1) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Generates one Synthea person per plan (in list order) and exports them as CSV into {@code outDir/csv/}.
     *
     * @return the Synthea patient id ({@code patients.csv} Id) of each plan, in plan order
     */
    static List<String> run(Path outDir, long seed, List<PersonPlan> plans, Consumer<String> callerProgress) {
        synchronized (LOCK) {
            PrintStream originalOut = System.out;
            PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
            // the caller's progress consumer may print to System.out: give it the real stream back meanwhile
            Consumer<String> progress = line -> {
                System.setOut(originalOut);
                try {
                    callerProgress.accept(line);
                } finally {
                    System.setOut(silent);
                }
            };
            System.setOut(silent);
            try {
                configure(outDir);
                CSVExporter exporter = CSVExporter.getInstance();
                closeWriters(exporter);
                invokeInit(exporter);
                try {
                    long t0 = System.nanoTime();
                    progress.accept("synthea: initialising (modules, providers; about 10 s on the first run)");
                    Generator.GeneratorOptions options = new Generator.GeneratorOptions();
                    options.population = plans.size();
                    options.seed = seed;
                    options.clinicianSeed = seed;
                    options.referenceTime = DatasetSpec.referenceEpochMillis();
                    options.endTime = options.referenceTime;
                    Generator generator = new Generator(options);
                    progress.accept(String.format("synthea: initialised in %.1f s; generating %d patients",
                            (System.nanoTime() - t0) / 1e9, plans.size()));
                    List<String> ids = new ArrayList<>(plans.size());
                    int done = 0;
                    for (PersonPlan plan : plans) {
                        generator.options.gender = plan.gender();
                        generator.options.ageSpecified = plan.ageYears() != null;
                        generator.options.minAge = plan.ageYears() != null ? plan.ageYears() : 0;
                        generator.options.maxAge = plan.ageYears() != null ? plan.ageYears() : 140;
                        Person person = generator.generatePerson(plan.index(), plan.seed());
                        ids.add(Objects.requireNonNull((String) person.attributes.get(Person.ID),
                                "Synthea person without id"));
                        done++;
                        if (done % 10 == 0 || done == plans.size()) {
                            progress.accept("synthea: " + done + "/" + plans.size() + " patients");
                        }
                    }
                    return ids;
                } finally {
                    closeWriters(exporter);
                }
            } finally {
                System.setOut(originalOut);
            }
        }
    }

    private static void configure(Path outDir) {
        // every exporter off (FHIR, C-CDA, JSON, text, CPCDS, BFD, CDW, metadata, ...), then CSV on
        for (String key : Config.allPropertyNames()) {
            if (key.startsWith("exporter.") && key.endsWith(".export")) {
                Config.set(key, "false");
            }
        }
        Config.set("exporter.fhir.bulk_data", "false");
        Config.set("exporter.enable_custom_exporters", "false");
        Config.set("exporter.baseDirectory", outDir.toAbsolutePath().toString());
        Config.set("exporter.use_uuid_filenames", "false");
        Config.set("exporter.subfolders_by_id_substring", "false");
        Config.set("exporter.csv.export", "true");
        Config.set("exporter.csv.append_mode", "false");
        Config.set("exporter.csv.folder_per_run", "false");
        Config.set("exporter.csv.included_files", String.join(",", CSV_FILES));
        Config.set("exporter.csv.excluded_files", "");
        Config.set("generate.log_patients.detail", "none");
        Config.set("generate.only_alive_patients", "true");
        Config.set("generate.only_dead_patients", "false");
        Config.set("generate.append_numbers_to_person_names", "false");
        Config.set("generate.thread_pool_size", "1");
    }

    /** Re-opens the exporter's CSV writers in the currently configured folder. */
    private static void invokeInit(CSVExporter exporter) {
        try {
            Method init = CSVExporter.class.getDeclaredMethod("init");
            init.setAccessible(true);
            init.invoke(exporter);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot re-initialise Synthea's CSV exporter (Synthea version?)", e);
        }
    }

    /** Flushes and closes the exporter's per-file writers (not its shared no-op writer). */
    private static void closeWriters(CSVExporter exporter) {
        try {
            Object noOp = null;
            for (Field f : CSVExporter.class.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && OutputStreamWriter.class.isAssignableFrom(f.getType())) {
                    f.setAccessible(true);
                    noOp = f.get(null);
                }
            }
            for (Field f : CSVExporter.class.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || !OutputStreamWriter.class.isAssignableFrom(f.getType())) {
                    continue;
                }
                f.setAccessible(true);
                Object w = f.get(exporter);
                if (w != null && w != noOp) {
                    OutputStreamWriter writer = (OutputStreamWriter) w;
                    try {
                        writer.flush();
                        writer.close();
                    } catch (java.io.IOException ignored) {
                        // already closed
                    }
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot close Synthea's CSV writers (Synthea version?)", e);
        }
    }
}
