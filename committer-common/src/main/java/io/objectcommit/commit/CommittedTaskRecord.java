package io.objectcommit.commit;

import io.objectcommit.store.files.CorruptRecordException;
import io.objectcommit.store.files.JsonRecord;
import io.objectcommit.store.files.JsonRecordCodec;
import java.io.Serializable;
import java.util.Objects;

/**
 * A task record as the committing attempt wrote it: its key, the ETag the store gave that write and the record's
 * bytes. A commit protocol that carries it from the task to the driver ({@link TaskRecordHandOver}) lets job commit
 * skip reading the record when the store's listing shows the same ETag under its key (nothing changed it since).
 * Records over {@link #MAX_BYTES} are not carried, nor those over their task's share of Spark's bound on task
 * results ({@code spark.TaskRecordCommitMessage}). The same for both committers; each parses it with its own record
 * codec.
 */
public final class CommittedTaskRecord implements Serializable {

  private static final long serialVersionUID = 2L;

  /**
   * The largest record carried to the driver: {@value} bytes (a direct committer's task of about 15,000 files; a
   * staging task's record with its whole budget of carried small files, 1 MiB of file data, is about 1.4 MB of JSON).
   * Larger records are read from the store at job commit.
   */
  public static final int MAX_BYTES = 2 << 20;

  private final String key;
  private final String etag;
  private final byte[] json;

  private CommittedTaskRecord(String key, String etag, byte[] json) {
    this.key = Objects.requireNonNull(key, "key");
    this.etag = Objects.requireNonNull(etag, "etag");
    this.json = json;
  }

  /**
   * The record whose bytes {@code json} were written under {@code key} with ETag {@code etag}, or null when it
   * cannot be carried (no ETag known, or larger than {@link #MAX_BYTES}). The array is kept, not copied.
   */
  public static CommittedTaskRecord of(String key, String etag, byte[] json) {
    if (etag == null || etag.isEmpty() || json.length > MAX_BYTES) {
      return null;
    }
    return new CommittedTaskRecord(key, etag, json);
  }

  /** The record's key in the bucket. */
  public String key() {
    return key;
  }

  /** The record's size in bytes. */
  public int size() {
    return json.length;
  }

  /** The ETag of the write that stored this record, without quotes. */
  public String etag() {
    return etag;
  }

  /**
   * The record, parsed and validated by {@code codec} (a record of another type is a {@link CorruptRecordException}).
   *
   * @param path the record's path, for errors
   */
  public <T extends JsonRecord> T record(JsonRecordCodec<T> codec, String path) throws CorruptRecordException {
    return codec.fromBytes(json, path);
  }

  @Override
  public String toString() {
    return key + " (ETag " + etag + ", " + json.length + " bytes)";
  }
}
