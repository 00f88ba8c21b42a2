package org.chartstream.datasets;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** The datasets the product runs by name. */
public final class Datasets {
    public static final String MIMIC_IV_DEMO = "mimic-iv-demo";
    /** The folder of the MIMIC-IV demo's tables, relative to the repository root. */
    public static final String MIMIC_IV_DEMO_FOLDER = "data/mimic-iv-demo/hosp";

    private Datasets() {
    }

    /** The known names, the default first. */
    public static List<String> names() {
        return List.of(SyntheticDataset.NAME, MIMIC_IV_DEMO);
    }

    /**
     * The dataset called {@code name}, if there is one.
     *
     * @param synthetic generates the synthetic dataset (only called when that one is loaded)
     */
    public static Optional<Dataset> named(String name, Supplier<ClinicalDataset> synthetic) {
        return switch (name) {
            case SyntheticDataset.NAME -> Optional.of(new SyntheticDataset(synthetic));
            case MIMIC_IV_DEMO -> Optional.of(mimicIvDemo());
            default -> Optional.empty();
        };
    }

    /**
     * The MIMIC-IV Clinical Database Demo 2.2 (real, de-identified records of 100 patients, ODbL): eleven hospital
     * tables as MIMIC's own build scripts declare them, from the copy in {@value #MIMIC_IV_DEMO_FOLDER}, read as its
     * binding file {@code mimic/mimic-iv-demo.binding} says (named by its configuration's {@code source.binding}).
     */
    public static CsvTablesDataset mimicIvDemo() {
        return new CsvTablesDataset(MIMIC_IV_DEMO,
                "MIMIC-IV Clinical Database Demo 2.2: real, de-identified hospital records of 100 patients (ODbL), schema mimiciv_hosp",
                "org/chartstream/datasets/mimic/mimic-iv-demo-hosp.sql",
                "org/chartstream/datasets/mimic/mimic-iv-demo.properties",
                Datasets::mimicIvDemoFolder);
    }

    private static Path mimicIvDemoFolder() {
        return BundledData.find(List.of(MIMIC_IV_DEMO_FOLDER), "patients.csv.gz")
                .orElseThrow(() -> new IllegalStateException("dataset " + MIMIC_IV_DEMO + ": no " + MIMIC_IV_DEMO_FOLDER
                        + " below the repository root (-D" + DatasetSpec.HOME_PROPERTY + ", set by ./chartstream) or the"
                        + " working directory and its parents"));
    }
}
