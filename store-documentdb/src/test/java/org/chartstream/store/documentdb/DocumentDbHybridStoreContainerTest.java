package org.chartstream.store.documentdb;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import org.chartstream.core.store.HybridStore;
import org.chartstream.core.store.RowSetContract;
import org.chartstream.core.store.TestVectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The whole {@link RowSetContract} and {@code HybridStoreContract} (less the capability tiers declared lacking below) against a real DocumentDB
 * engine: DocumentDB local in a container, started through Testcontainers. It needs a Docker engine, so the default
 * build leaves it out (store/pom.xml) and covers the adapter with the in-process test double and the golden search
 * pipelines; where Docker runs:
 * {@code mvn -B -pl store-documentdb -am test -Dtest=DocumentDbHybridStoreContainerTest -Dsurefire.failIfNoSpecifiedTests=false}. Without an engine it fails, saying so.
 */
class DocumentDbHybridStoreContainerTest extends RowSetContract {

  static final DockerImageName IMAGE = DockerImageName.parse("ghcr.io/microsoft/documentdb/documentdb-local:latest");
  static final int PORT = 10260;
  static final String USER = "chartstream";
  static final String PASSWORD = "chartstream-test";

  private static GenericContainer<?> documentDb;

  @BeforeAll
  static void startDocumentDb() {
    documentDb = new GenericContainer<>(IMAGE)
        .withExposedPorts(PORT)
        .withEnv("USERNAME", USER)
        .withEnv("PASSWORD", PASSWORD)
        .waitingFor(Wait.forListeningPort().withStartupTimeout(Duration.ofMinutes(3)));
    documentDb.start();
  }

  @AfterAll
  static void stopDocumentDb() {
    if (documentDb != null) {
      documentDb.stop();
    }
  }

  /** {@code $text} scores each chunk document alone. */
  @Override
  protected boolean rowLevelLexicalScores() {
    return false;
  }

  @Override
  protected HybridStore openStore(Path location) {
    String database = "contract_" + HexFormat.of().toHexDigits(location.toString().hashCode());
    String connectionString = "mongodb://" + USER + ":" + PASSWORD + "@" + documentDb.getHost() + ":"
        + documentDb.getMappedPort(PORT) + "/?authMechanism=SCRAM-SHA-256";
    // DocumentDB local serves TLS with a self-signed certificate generated at start-up
    return DocumentDbHybridStore.open(DocumentDbSettings.defaults(connectionString, database, TestVectors.DIM)
        .withRetiredChunkGrace(Duration.ZERO)
        .withTls(DocumentDbSettings.Tls.insecureAllowInvalidCertificates()));
  }

  /** DocumentDB exposes no term dictionary to walk for similar words. */
  @Override
  protected boolean similarIndexedWords() {
    return false;
  }
}
