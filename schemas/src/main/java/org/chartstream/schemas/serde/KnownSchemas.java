package org.chartstream.schemas.serde;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.message.SchemaStore;

/**
 * Every writer schema a reader may meet, keyed by fingerprint: the older versions shipped under
 * {@code avro-history/} in this jar. There is no schema registry; single-object encoding carries the
 * writer's fingerprint and this store resolves it.
 */
public final class KnownSchemas {
    private static final String HISTORY_INDEX = "/avro-history/index.txt";
    private static final SchemaStore.Cache STORE = load();

    private KnownSchemas() {
    }

    public static SchemaStore store() {
        return STORE;
    }

    private static SchemaStore.Cache load() {
        SchemaStore.Cache cache = new SchemaStore.Cache();
        for (String file : historyFiles()) {
            try (InputStream in = KnownSchemas.class.getResourceAsStream("/avro-history/" + file)) {
                if (in == null) {
                    throw new IllegalStateException("avro-history/index.txt lists " + file + " but the jar has no such file");
                }
                cache.addSchema(new Schema.Parser().parse(in));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read historical schema " + file, e);
            }
        }
        return cache;
    }

    private static List<String> historyFiles() {
        InputStream in = KnownSchemas.class.getResourceAsStream(HISTORY_INDEX);
        if (in == null) {
            return List.of();
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return r.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
