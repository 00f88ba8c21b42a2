package org.chartstream.store.lucene;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.Version;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An index created by an older Lucene major version (e.g. 9.x, before the upgrade to 10) is not kept: its codec is
 * not on the classpath, and its vectors are in the old format. Nor is an index of another store format
 * ({@link LuceneSchema#FORMAT_VERSION}, e.g. text analysed without accent folding): its terms would not match what
 * queries are analysed to. The store is a materialised view of the index log, so the old index is deleted and the
 * store opens empty, with no checkpoint; its materialiser replays the log from the start and rebuilds it.
 */
final class OldIndexFormat {

  private static final Logger LOG = LoggerFactory.getLogger(OldIndexFormat.class);

  private static final Pattern OLD_CODEC = Pattern.compile("codec '([A-Za-z0-9]+)'");
  private static final Pattern CREATED_WITH = Pattern.compile("created with Lucene (\\d+(\\.\\d+)?)");

  private OldIndexFormat() {}

  /**
   * Deletes the index in {@code directory} when an older Lucene major created it; returns why, or empty when the
   * directory holds no index or a current one.
   *
   * @throws IllegalStateException if another store holds the directory
   */
  static Optional<String> discardIfOld(Directory directory, Path path) throws IOException {
    Optional<String> olderLucene = olderMajor(directory);
    Optional<String> otherFormat = olderLucene.isPresent() ? Optional.empty() : otherFormat(directory);
    if (olderLucene.isEmpty() && otherFormat.isEmpty()) {
      return Optional.empty();
    }
    String reason = olderLucene.isPresent()
        ? "the index at " + path + " was written by " + olderLucene.get() + "; this is Lucene " + Version.LATEST
            + ": it is rebuilt from the index log"
        : "the index at " + path + " was written in store format " + otherFormat.get() + "; this store writes format "
            + LuceneSchema.FORMAT_VERSION + ": it is rebuilt from the index log";
    LOG.warn("{} (the old index is deleted)", reason);
    try (Lock lock = directory.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
      for (String file : directory.listAll()) {
        if (!file.equals(IndexWriter.WRITE_LOCK_NAME)) {
          directory.deleteFile(file);
        }
      }
    } catch (LockObtainFailedException e) {
      throw new IllegalStateException("index directory " + path + " is already open by another store", e);
    }
    return Optional.of(reason);
  }

  /**
   * The store format the directory's current-Lucene index records when it is not this store's; empty if it is, or
   * there is no index. An index from before formats were recorded reads as format 1.
   */
  static Optional<String> otherFormat(Directory directory) throws IOException {
    if (!DirectoryReader.indexExists(directory)) {
      return Optional.empty();
    }
    String format = SegmentInfos.readLatestCommit(directory).getUserData().getOrDefault(LuceneSchema.META_FORMAT, "1");
    return format.equals(LuceneSchema.FORMAT_VERSION) ? Optional.empty() : Optional.of(format);
  }

  /** Which Lucene wrote the directory's index when it is older than this Lucene can keep; empty if current or none. */
  static Optional<String> olderMajor(Directory directory) throws IOException {
    if (!DirectoryReader.indexExists(directory)) {
      return Optional.empty();
    }
    try {
      SegmentInfos.readLatestCommit(directory, Version.LATEST.major);
      return Optional.empty();
    } catch (IndexFormatTooOldException e) {
      // only the message names the old codec ("Could not load codec 'Lucene912'") or major ("created with Lucene 8")
      String message = String.valueOf(e.getMessage());
      Matcher codec = OLD_CODEC.matcher(message);
      Matcher created = CREATED_WITH.matcher(message);
      return Optional.of(codec.find() ? "an older Lucene (codec " + codec.group(1) + ")"
          : created.find() ? "Lucene " + created.group(1) : "an older Lucene");
    }
  }
}
