package org.chartstream.app;

import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;

/** The whole embedded pipeline over a clinical schema holding one patient, searchable, with a reply topic of its own. */
final class OnePatientPipeline {
    private OnePatientPipeline() {
    }

    /**
     * @param patientValues the SQL values of the one patients row: (patient_id, patient_no, first_name, last_name,
     *                      birth_date, gender, city, state)
     */
    static PipelineRuntime start(Path dir, String name, String patientValues, String replyTopic) {
        return start(dir, name, patientValues, replyTopic, Map.of());
    }

    /** @param settings configuration keys set over the defaults */
    static PipelineRuntime start(Path dir, String name, String patientValues, String replyTopic, Map<String, String> settings) {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", dir.toString());
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            config = config.with(setting.getKey(), setting.getValue());
        }
        PipelineRuntime runtime = PipelineRuntime.start(config, dir.resolve(name), c -> {
            ClinicalDatasetLoader.createSchema(c);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("insert into patients (patient_id, patient_no, first_name, last_name, birth_date, gender, city, state)"
                        + " values " + patientValues);
            }
            return Map.of("patients", 1);
        }, line -> System.out.println("[" + name + "] " + line));
        runtime.createTopics(Map.of(replyTopic, 1));
        runtime.awaitSearchable(Duration.ofMinutes(3));
        return runtime;
    }
}
