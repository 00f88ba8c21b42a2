package org.chartstream.store.documentdb;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@link DocumentDbHybridStore} connects to a DocumentDB engine and shapes its indexes and searches.
 *
 * @param connectionString a {@code mongodb://} connection string (credentials belong here or in the environment,
 *     never in logs: the store logs host names only)
 * @param database the database holding {@code records}, {@code indexed_tables} and {@code commit_state}
 * @param dimension the embedding dimension: the vector index is built for exactly this many dimensions
 * @param vectorIndexKind {@code vector-hnsw} (default) or {@code vector-ivf}
 * @param hnswM HNSW graph degree ({@code m})
 * @param hnswEfConstruction HNSW build candidate list ({@code efConstruction}, at least {@code 2 * m})
 * @param ivfNumLists IVF cluster count ({@code numLists}), or {@code null} (the default) for one that grows with
 *     the collection ({@link IvfSizing#lists}), chosen at each build of the index
 * @param numCandidates HNSW search candidate list ({@code efSearch}), {@value #DEFAULT_EF_SEARCH} by default, or
 *     {@code null} for the engine's own; it is raised to k, since an {@code efSearch} below k returns fewer than k
 *     hits. With {@code null}, {@code efSearch} is sent only as k when k exceeds the engine's default list of
 *     {@value #ENGINE_DEFAULT_EF_SEARCH}
 * @param ivfProbes IVF lists probed per search ({@code nProbes}), or {@code null} (the default) for a number that
 *     grows with the index's lists ({@link IvfSizing#probes})
 * @param vectorFilterMode where the retrieval filter is applied on the vector side
 * @param overFetchFactor post-filter fallback: vector hits fetched per requested hit before the {@code $match}
 * @param maxOverFetch post-filter fallback: the most vector hits fetched for one search (the engine's
 *     candidate-list limit)
 * @param transactions whether commits run in a multi-document transaction
 * @param retiredChunkGrace how long chunks replaced or deleted by a commit stay on disk for searches that started
 *     before it
 * @param tls transport security
 */
public record DocumentDbSettings(
    String connectionString,
    String database,
    int dimension,
    VectorIndexKind vectorIndexKind,
    int hnswM,
    int hnswEfConstruction,
    Integer ivfNumLists,
    Integer numCandidates,
    Integer ivfProbes,
    VectorFilterMode vectorFilterMode,
    int overFetchFactor,
    int maxOverFetch,
    TransactionMode transactions,
    Duration retiredChunkGrace,
    Tls tls) {

  /** The engine's largest HNSW search candidate list. */
  public static final int MAX_CANDIDATES = 1_000;

  /** The candidate list the engine's HNSW search uses on collections of 10,000 rows or more without an efSearch. */
  public static final int ENGINE_DEFAULT_EF_SEARCH = 40;

  /**
   * The HNSW search candidate list sent by default. The engine's own, {@value #ENGINE_DEFAULT_EF_SEARCH} from 10,000
   * rows, is its minimum: on 10k random 384-d vectors (issue 38, the worst case) it gave recall@10 0.495 against
   * 0.825 with 200 at the same latency (13 and 12 ms p50), and 0.50 against 0.855 under a 27 % tables filter.
   */
  public static final int DEFAULT_EF_SEARCH = 200;

  /** The cosmosSearch index kinds this store can create. */
  public enum VectorIndexKind {
    HNSW("vector-hnsw"),
    IVF("vector-ivf");

    private final String kind;

    VectorIndexKind(String kind) {
      this.kind = kind;
    }

    /** The {@code cosmosSearchOptions.kind} value. */
    public String kind() {
      return kind;
    }
  }

  /** Where the vector side applies the retrieval filter. */
  public enum VectorFilterMode {
    /** Inside {@code cosmosSearch} (k hits that pass the filter); post-filter if the server refuses. */
    AUTO,
    /** Inside {@code cosmosSearch} only; a server without filtered vector search is an error. */
    PUSHDOWN,
    /** Over-fetch without a filter, then {@code $match}: for servers without filtered vector search. */
    POST_FILTER
  }

  /** Whether commits use multi-document transactions. */
  public enum TransactionMode {
    /** Transactions when the server supports them, otherwise the single-document switch. */
    AUTO,
    /** Fail at open when the server has no transactions. */
    REQUIRED,
    /** Always the single-document switch. */
    DISABLED
  }

  /**
   * Transport security. Certificate validation is on whenever TLS is: {@code caFile} adds a trusted CA (PEM) for
   * servers with a site certificate; {@code allowInvalidCertificates} switches validation off and is logged as a
   * warning at every connect.
   *
   * @param enabled TLS on (it is also on when the connection string says {@code tls=true})
   * @param caFile PEM file with the CA certificate(s) to trust instead of the JVM's trust store, or {@code null}
   * @param allowInvalidCertificates accept any server certificate and host name (development only)
   */
  public record Tls(boolean enabled, Path caFile, boolean allowInvalidCertificates) {

    /** TLS as the connection string says, with certificate validation against the JVM's trust store. */
    public static final Tls FROM_CONNECTION_STRING = new Tls(false, null, false);

    /** TLS on, validated against the CA certificates in {@code caFile}. */
    public static Tls withCaFile(Path caFile) {
      return new Tls(true, Objects.requireNonNull(caFile, "caFile"), false);
    }

    /** TLS on without certificate or host name validation. */
    public static Tls insecureAllowInvalidCertificates() {
      return new Tls(true, null, true);
    }
  }

  public DocumentDbSettings {
    Objects.requireNonNull(connectionString, "connectionString");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(vectorIndexKind, "vectorIndexKind");
    Objects.requireNonNull(vectorFilterMode, "vectorFilterMode");
    Objects.requireNonNull(transactions, "transactions");
    Objects.requireNonNull(retiredChunkGrace, "retiredChunkGrace");
    Objects.requireNonNull(tls, "tls");
    if (dimension < 1 || dimension > 2_000) {
      throw new IllegalArgumentException("dimension must be in 1..2000 (the engine's vector index limit): "
          + dimension);
    }
    if (hnswM < 2 || hnswEfConstruction < 2 * hnswM) {
      throw new IllegalArgumentException("HNSW needs m >= 2 and efConstruction >= 2 * m");
    }
    if ((ivfNumLists != null && ivfNumLists < 1) || (ivfProbes != null && (ivfProbes < 1
        || (ivfNumLists != null && ivfProbes > ivfNumLists)))) {
      throw new IllegalArgumentException("IVF needs numLists >= 1 and 1 <= nProbes <= numLists");
    }
    if (numCandidates != null && (numCandidates < 1 || numCandidates > MAX_CANDIDATES)) {
      throw new IllegalArgumentException("numCandidates must be in 1.." + MAX_CANDIDATES);
    }
    if (overFetchFactor < 1 || maxOverFetch < 1 || maxOverFetch > MAX_CANDIDATES) {
      throw new IllegalArgumentException("overFetchFactor >= 1 and maxOverFetch in 1.." + MAX_CANDIDATES);
    }
    if (retiredChunkGrace.isNegative()) {
      throw new IllegalArgumentException("retiredChunkGrace must not be negative");
    }
  }

  /**
   * HNSW (m 16, efConstruction 64, efSearch {@value #DEFAULT_EF_SEARCH}); for IVF, lists and probes that grow with
   * the collection; filter pushdown with fallback, transactions when available.
   */
  public static DocumentDbSettings defaults(String connectionString, String database, int dimension) {
    return new DocumentDbSettings(connectionString, database, dimension, VectorIndexKind.HNSW, 16, 64, null,
        DEFAULT_EF_SEARCH, null, VectorFilterMode.AUTO, 10, MAX_CANDIDATES, TransactionMode.AUTO, Duration.ofSeconds(60),
        Tls.FROM_CONNECTION_STRING);
  }

  public DocumentDbSettings withVectorIndexKind(VectorIndexKind kind) {
    return new DocumentDbSettings(connectionString, database, dimension, kind, hnswM, hnswEfConstruction,
        ivfNumLists, numCandidates, ivfProbes, vectorFilterMode, overFetchFactor, maxOverFetch, transactions,
        retiredChunkGrace, tls);
  }

  public DocumentDbSettings withNumCandidates(Integer candidates) {
    return new DocumentDbSettings(connectionString, database, dimension, vectorIndexKind, hnswM,
        hnswEfConstruction, ivfNumLists, candidates, ivfProbes, vectorFilterMode, overFetchFactor, maxOverFetch,
        transactions, retiredChunkGrace, tls);
  }

  public DocumentDbSettings withIvfNumLists(Integer lists) {
    return new DocumentDbSettings(connectionString, database, dimension, vectorIndexKind, hnswM,
        hnswEfConstruction, lists, numCandidates, ivfProbes, vectorFilterMode, overFetchFactor, maxOverFetch,
        transactions, retiredChunkGrace, tls);
  }

  public DocumentDbSettings withIvfProbes(Integer probes) {
    return new DocumentDbSettings(connectionString, database, dimension, vectorIndexKind, hnswM,
        hnswEfConstruction, ivfNumLists, numCandidates, probes, vectorFilterMode, overFetchFactor, maxOverFetch,
        transactions, retiredChunkGrace, tls);
  }

  public DocumentDbSettings withVectorFilterMode(VectorFilterMode mode) {
    return new DocumentDbSettings(connectionString, database, dimension, vectorIndexKind, hnswM,
        hnswEfConstruction, ivfNumLists, numCandidates, ivfProbes, mode, overFetchFactor, maxOverFetch,
        transactions, retiredChunkGrace, tls);
  }

  public DocumentDbSettings withTransactions(TransactionMode mode) {
    return new DocumentDbSettings(connectionString, database, dimension, vectorIndexKind, hnswM,
        hnswEfConstruction, ivfNumLists, numCandidates, ivfProbes, vectorFilterMode, overFetchFactor, maxOverFetch,
        mode, retiredChunkGrace, tls);
  }

  public DocumentDbSettings withRetiredChunkGrace(Duration grace) {
    return new DocumentDbSettings(connectionString, database, dimension, vectorIndexKind, hnswM,
        hnswEfConstruction, ivfNumLists, numCandidates, ivfProbes, vectorFilterMode, overFetchFactor, maxOverFetch,
        transactions, grace, tls);
  }

  public DocumentDbSettings withTls(Tls newTls) {
    return new DocumentDbSettings(connectionString, database, dimension, vectorIndexKind, hnswM,
        hnswEfConstruction, ivfNumLists, numCandidates, ivfProbes, vectorFilterMode, overFetchFactor, maxOverFetch,
        transactions, retiredChunkGrace, newTls);
  }

  /** No connection string: it can carry credentials. */
  @Override
  public String toString() {
    return "DocumentDbSettings[database=" + database + ", dimension=" + dimension + ", index="
        + vectorIndexKind.kind() + ", numCandidates=" + numCandidates + ", numLists=" + ivfNumLists + ", nProbes="
        + ivfProbes + ", filter="
        + vectorFilterMode + ", transactions=" + transactions + ", tls=" + tls + "]";
  }
}
