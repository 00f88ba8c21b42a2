package org.chartstream.ingest.project;

import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** {@link PatientIdentities} over in-memory stores, for tests without a topology. */
public final class PatientIdentityStores {
    private PatientIdentityStores() {
    }

    public static PatientIdentities inMemory() {
        return new PatientIdentities(store("patient-identities"), store("rows-awaiting-patient"), store("patient-children"),
                store("renamed-patients"), store("encounter-patients"));
    }

    /** As a restarted task has them: each store restored from its changelog's records, in order (null value: deleted). */
    public static PatientIdentities restored(Function<String, List<KeyValue<String, String>>> changelog) {
        return new PatientIdentities(restored("patient-identities", changelog), restored("rows-awaiting-patient", changelog),
                restored("patient-children", changelog), restored("renamed-patients", changelog),
                restored("encounter-patients", changelog));
    }

    private static KeyValueStore<String, String> restored(String name, Function<String, List<KeyValue<String, String>>> changelog) {
        KeyValueStore<String, String> store = store(name);
        for (KeyValue<String, String> kv : changelog.apply(name)) {
            if (kv.value == null) {
                store.delete(kv.key);
            } else {
                store.put(kv.key, kv.value);
            }
        }
        return store;
    }

    public static KeyValueStore<String, String> store(String name) {
        KeyValueStore<String, String> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
                Serdes.String(), Serdes.String()).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }
}
