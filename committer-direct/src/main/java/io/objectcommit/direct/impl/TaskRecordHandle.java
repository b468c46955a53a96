package io.objectcommit.direct.impl;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.store.CompareAndSwap;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.files.JsonRecordCodec;
import java.io.FileNotFoundException;
import java.io.IOException;

/**
 * One task's {@link DirectTaskRecord} as this attempt last saw it, updated by compare-and-swap
 * ({@link CompareAndSwap}): the first write is an exclusive create (one request when no earlier attempt exists),
 * later ones are {@code If-Match} the ETag of our previous write. On a conflict the record is read again and the
 * change recomputed from it.
 */
final class TaskRecordHandle {

  /** A change of the record: from the current one (null if none exists) to the next, or null to write nothing. */
  interface Change {
    DirectTaskRecord apply(DirectTaskRecord current) throws IOException;
  }

  private static final JsonRecordCodec<DirectTaskRecord> CODEC = DirectTaskRecord.CODEC;

  private final ObjectStore store;
  private final String key;
  private final CompareAndSwap cas;
  private DirectTaskRecord current;
  private String etag;
  private boolean known;

  TaskRecordHandle(ObjectStore store, String key, int casAttempts) {
    this.store = store;
    this.key = key;
    this.cas = new CompareAndSwap(casAttempts);
  }

  String path() {
    return store.pathOf(key);
  }

  /** The record as last read or written (a copy), or null if none exists; read once if not known yet. */
  synchronized DirectTaskRecord read() throws IOException {
    if (!known) {
      load();
    }
    return current == null ? null : current.copy();
  }

  /**
   * Reads the record again (one GET), so that the next {@link #update} starts from what is stored rather than from
   * this attempt's last write: for changes that delete objects before they write (task abort), where a stale copy
   * would miss what other attempts recorded since (a commit of another attempt, whose keys must be kept).
   */
  synchronized void reload() throws IOException {
    load();
  }

  /**
   * The record as this attempt last wrote or read it, with the ETag of that version, for the driver; null when no
   * record is known or it cannot be carried ({@link CommittedTaskRecord#of}).
   */
  synchronized CommittedTaskRecord stored() throws IOException {
    return known && current != null ? CommittedTaskRecord.of(key, etag, CODEC.toBytes(current)) : null;
  }

  private void load() throws IOException {
    try {
      JsonRecordCodec.Loaded<DirectTaskRecord> l = CODEC.loadWithEtag(store, key);
      current = l.record();
      etag = l.info().etag();
    } catch (FileNotFoundException e) {
      current = null;
      etag = null;
    }
    known = true;
  }

  /**
   * Applies a change, retrying on conflicting writes of other attempts. When the record's state is not known yet
   * the change is first tried against "no record" (an exclusive create), which is right for a first attempt.
   *
   * @return the record now stored
   * @throws io.objectcommit.store.CasConflictException when other attempts kept changing it
   */
  synchronized DirectTaskRecord update(Change change) throws IOException {
    return cas.run(store.pathOf(key), "task record", attempt -> {
      if (attempt > 0) {
        load();
      }
      DirectTaskRecord base = known && current != null ? current.copy() : null;
      DirectTaskRecord next = change.apply(base);
      if (next == null) {
        return base;
      }
      WriteCondition condition = base == null ? WriteCondition.ifAbsent() : WriteCondition.ifMatch(etag);
      ObjectInfo info = CompareAndSwap.write(() -> CODEC.save(store, key, next, condition));
      current = next.copy();
      etag = info.etag();
      known = etag != null;
      return next;
    });
  }
}
