package org.chartstream.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Bytes of the index's vector files by kind (Lucene 10: .vec float32, .veq quantised, .vex HNSW graph). */
record IndexFootprint(long rawVectorBytes, long quantizedVectorBytes, long graphBytes) {
  static IndexFootprint of(Path dir) {
    return new IndexFootprint(sizeOf(dir, ".vec"), sizeOf(dir, ".veq"), sizeOf(dir, ".vex"));
  }

  private static long sizeOf(Path dir, String extension) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(extension)).mapToLong(IndexFootprint::fileSize).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Bytes of every file of the index. */
  static long totalBytes(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(IndexFootprint::fileSize).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long fileSize(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return 0; // deleted by a merge meanwhile
    }
  }
}
