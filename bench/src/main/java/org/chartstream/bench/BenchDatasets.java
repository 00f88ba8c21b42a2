package org.chartstream.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.chartstream.datasets.Dataset;
import org.chartstream.runtime.config.ChartstreamConfig;

/**
 * The configuration a benchmark runs a dataset under: the user's, over the benchmark's own layer for that dataset
 * (a resource {@code datasets/<name>.properties} next to this class, if there is one), over the dataset's shipped
 * configuration. The benchmark's layer is skipped once the dataset ships a binding file ({@value #BINDING_KEY}),
 * which then says what is indexed.
 */
final class BenchDatasets {
    static final String BINDING_KEY = "source.binding";

    private BenchDatasets() {
    }

    static ChartstreamConfig configure(ChartstreamConfig config, Dataset dataset) {
        Map<String, String> shipped = dataset.configuration();
        Map<String, String> layer = shipped.containsKey(BINDING_KEY) ? Map.of() : benchLayer(dataset.name());
        return config.underlay(layer, "bench layer of dataset " + dataset.name())
                .underlay(shipped, "dataset " + dataset.name());
    }

    /** The benchmark's own keys for dataset {@code name}; empty when it has none. */
    static Map<String, String> benchLayer(String name) {
        try (InputStream in = BenchDatasets.class.getResourceAsStream("datasets/" + name + ".properties")) {
            if (in == null) {
                return Map.of();
            }
            Properties p = new Properties();
            p.load(in);
            Map<String, String> layer = new TreeMap<>();
            p.stringPropertyNames().forEach(k -> layer.put(k, p.getProperty(k)));
            return layer;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bench layer of dataset " + name, e);
        }
    }
}
