package org.chartstream.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.TableRef;
import org.chartstream.store.documentdb.DocumentDbHybridStore;
import org.chartstream.store.documentdb.DocumentDbSettings;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code store.kind} selects the adapter. The DocumentDB side runs against a TEST DOUBLE, mongo-java-server (an
 * in-process MongoDB wire-protocol server): no DocumentDB engine can run on this build machine.
 */
class StoreSelectionTest {
    @TempDir
    Path dir;

    @Test
    void theDefaultIsALuceneIndexInTheGivenDirectory() {
        ChartstreamConfig config = ChartstreamConfig.defaults();
        assertThat(config.string("store.kind")).isEqualTo("lucene");
        try (HybridStore store = StoreSelection.open(config, dir.resolve("index"), 384)) {
            assertThat(store).isInstanceOf(LuceneHybridStore.class);
            assertThat(((LuceneHybridStore) store).path()).isEqualTo(dir.resolve("index"));
        }
    }

    @Test
    void documentDbIsOpenedAtTheConfiguredServerAndDatabase_onTheMongoJavaServerTestDouble() {
        MongoServer testDouble = new MongoServer(new MemoryBackend());
        InetSocketAddress address = testDouble.bind();
        try {
            ChartstreamConfig config = ChartstreamConfig.defaults()
                    .with("store.documentdb.uri", "mongodb://" + address.getHostString() + ":" + address.getPort())
                    .with("store.kind", "documentdb")
                    .with("store.documentdb.database", "chartstream_selection");
            try (HybridStore store = StoreSelection.open(config, dir.resolve("unused"), 384)) {
                assertThat(store).isInstanceOf(DocumentDbHybridStore.class);
                assertThat(store.activeGenerations()).isEmpty();
                assertThat(store.countRows(new TableRef("ehr", "patients"))).isZero();
            }
            try (com.mongodb.client.MongoClient raw = com.mongodb.client.MongoClients.create(config.string("store.documentdb.uri"))) {
                assertThat(raw.getDatabase("chartstream_selection").listCollectionNames().into(new java.util.ArrayList<>()))
                        .as("the adapter created its collections in the configured database").isNotEmpty();
            }
            assertThat(dir.resolve("unused")).doesNotExist();
        } finally {
            testDouble.shutdownNow();
        }
    }

    @Test
    void documentDbSettingsCarryCredentialsDatabaseAndTlsWithValidationOn() {
        ChartstreamConfig config = ChartstreamConfig.defaults()
                .with("store.documentdb.uri", "mongodb://documentdb:10260/?tls=true").with("store.kind", "documentdb")
                .with("store.documentdb.database", "cs")
                .with("store.documentdb.password", "p@ss:w/rd").with("store.documentdb.username", "chart user")
                .with("documentdb.tls", "true");
        DocumentDbSettings settings = StoreSelection.documentDbSettings(config, 384);
        assertThat(settings.connectionString()).isEqualTo("mongodb://chart+user:p%40ss%3Aw%2Frd@documentdb:10260/?tls=true");
        assertThat(settings.database()).isEqualTo("cs");
        assertThat(settings.dimension()).isEqualTo(384);
        assertThat(settings.tls().enabled()).isTrue();
        assertThat(settings.tls().allowInvalidCertificates()).as("certificates are validated unless switched off").isFalse();
        assertThat(config.describe().get("store.documentdb.password")).startsWith("***");
        assertThat(ChartstreamConfig.defaults()
                .with("store.documentdb.uri", "mongodb://u:secret@documentdb:10260/").with("store.kind", "documentdb").describe().get("store.documentdb.uri"))
                .startsWith("mongodb://***@documentdb:10260/").doesNotContain("secret");
    }

    @Test
    void badStoreSettingsNameTheKey() {
        ChartstreamConfig defaults = ChartstreamConfig.defaults();
        assertThatThrownBy(() -> defaults.with("store.kind", "elastic")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("'store.kind'").hasMessageContaining("lucene, documentdb");
        assertThatThrownBy(() -> defaults.with("store.kind", "documentdb")).hasMessageContaining("'store.documentdb.uri'");
        ChartstreamConfig documentDb = defaults.with("store.documentdb.uri", "mongodb://h:1/").with("store.kind", "documentdb");
        assertThatThrownBy(() -> documentDb.with("store.documentdb.database", "a.b")).hasMessageContaining("'store.documentdb.database'");
        assertThatThrownBy(() -> documentDb.with("store.documentdb.username", "u")).hasMessageContaining("'store.documentdb.password'");
        assertThatThrownBy(() -> documentDb.with("store.documentdb.uri", "mongodb://")).hasMessageContaining("names no host");
    }
}
