package org.chartstream.store.lucene;

import java.io.IOException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.ReferenceManager;

/**
 * Reference-counted snapshots over near-real-time readers of the writer; the reader's own ref count keeps an old
 * snapshot alive while searches use it. {@link #refreshTo} is only called by the store's commit, under its
 * exclusive lock, right before the writer commits.
 */
final class SnapshotManager extends ReferenceManager<Snapshot> {

  private final IndexWriter writer;
  private volatile CommittedState nextState;

  SnapshotManager(IndexWriter writer, CommittedState state) throws IOException {
    this.writer = writer;
    this.nextState = state;
    DirectoryReader reader = DirectoryReader.open(writer, true, false);
    try {
      current = Snapshot.of(reader, state);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  Snapshot current() {
    return current;
  }

  void refreshTo(CommittedState state) throws IOException {
    nextState = state;
    maybeRefreshBlocking();
  }

  @Override
  protected void decRef(Snapshot s) throws IOException {
    s.reader().decRef();
  }

  @Override
  protected Snapshot refreshIfNeeded(Snapshot old) throws IOException {
    CommittedState state = nextState;
    DirectoryReader next = DirectoryReader.openIfChanged(old.reader(), writer, true);
    if (next == null) {
      if (state.equals(old.state())) {
        return null;
      }
      // same documents, new commit data (a checkpoint-only commit): the new snapshot shares the reader
      old.reader().incRef();
      next = old.reader();
    }
    try {
      return Snapshot.of(next, state);
    } catch (IOException | RuntimeException e) {
      next.decRef();
      throw e;
    }
  }

  @Override
  protected boolean tryIncRef(Snapshot s) {
    return s.reader().tryIncRef();
  }

  @Override
  protected int getRefCount(Snapshot s) {
    return s.reader().getRefCount();
  }
}
