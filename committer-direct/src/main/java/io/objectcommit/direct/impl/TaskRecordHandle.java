package io.objectcommit.direct.impl;

import io.objectcommit.direct.files.TaskRecord;
import io.objectcommit.fs.ObjectChangedException;
import io.objectcommit.fs.ObjectInfo;
import io.objectcommit.fs.ObjectStore;
import io.objectcommit.fs.WriteCondition;
import io.objectcommit.fs.files.JsonRecordCodec;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;

/**
 * One task's {@link TaskRecord} as this attempt last saw it, updated by compare-and-swap: the first write is an
 * exclusive create (one request when no earlier attempt exists), later ones are {@code If-Match} the ETag of our
 * previous write. On a conflict the record is read again and the change recomputed from it.
 */
final class TaskRecordHandle {

  /** A change of the record: from the current one (null if none exists) to the next, or null to write nothing. */
  interface Change {
    TaskRecord apply(TaskRecord current) throws IOException;
  }

  private static final int MAX_CONFLICTS = 20;
  private static final JsonRecordCodec<TaskRecord> CODEC = TaskRecord.codec();

  private final ObjectStore store;
  private final String key;
  private TaskRecord current;
  private String etag;
  private boolean known;

  TaskRecordHandle(ObjectStore store, String key) {
    this.store = store;
    this.key = key;
  }

  String key() {
    return key;
  }

  /** The record as last read or written (a copy), or null if none exists; read once if not known yet. */
  synchronized TaskRecord read() throws IOException {
    if (!known) {
      load();
    }
    return current == null ? null : current.copy();
  }

  private void load() throws IOException {
    try {
      JsonRecordCodec.Loaded<TaskRecord> l = CODEC.loadWithEtag(store, key);
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
   */
  synchronized TaskRecord update(Change change) throws IOException {
    for (int i = 0; i < MAX_CONFLICTS; i++) {
      TaskRecord base = known && current != null ? current.copy() : null;
      TaskRecord next = change.apply(base);
      if (next == null) {
        return base;
      }
      try {
        ObjectInfo info = base == null
            ? CODEC.save(store, key, next, WriteCondition.ifAbsent())
            : CODEC.save(store, key, next, WriteCondition.ifMatch(etag));
        current = next.copy();
        etag = info.etag();
        known = etag != null;
        return next;
      } catch (FileAlreadyExistsException | ObjectChangedException | FileNotFoundException conflict) {
        load();
      }
    }
    throw new IOException(store.pathOf(key) + ": gave up after " + MAX_CONFLICTS
        + " conflicting updates of the task record (other attempts of the task keep changing it)");
  }
}
