package org.chartstream.store.documentdb;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RowSetContract;
import org.chartstream.core.store.TestVectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The {@link RowSetContract} (and so the whole {@code HybridStoreContract}) on the in-process test double mongo-java-server, in the default build: every
 * contract test that needs no search runs the DocumentDB adapter's own write, commit, count, lookup and validation
 * code, and its exact-term lookups ({@code $regex}). The double has no {@code $search}, {@code cosmosSearch} or
 * {@code $text}, so the search tier is off; the searches are pinned as golden pipelines in
 * {@link DocumentDbPipelinesTest} and run against the engine in {@link DocumentDbHybridStoreContainerTest}.
 */
class DocumentDbHybridStoreContractOnMongoJavaServerTest extends RowSetContract {

  private static MongoServer server;
  private static String connectionString;

  @BeforeAll
  static void startDouble() {
    server = new MongoServer(new MemoryBackend());
    InetSocketAddress address = server.bind();
    connectionString = "mongodb://" + address.getHostString() + ":" + address.getPort();
  }

  @AfterAll
  static void stopDouble() {
    server.shutdownNow();
  }

  @Override
  protected boolean vectorAndLexicalSearch() {
    return false;
  }

  @Override
  protected HybridStore openStore(Path location) {
    String database = "contract_" + HexFormat.of().toHexDigits(location.toString().hashCode());
    return DocumentDbHybridStore.open(DocumentDbSettings.defaults(connectionString, database, TestVectors.DIM)
        .withRetiredChunkGrace(Duration.ZERO));
  }

  /** DocumentDB exposes no term dictionary to walk for similar words. */
  @Override
  protected boolean similarIndexedWords() {
    return false;
  }
}
