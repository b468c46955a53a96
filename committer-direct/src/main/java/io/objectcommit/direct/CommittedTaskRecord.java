package io.objectcommit.direct;

import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.store.files.CorruptRecordException;
import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;

/**
 * A task record as the committing attempt wrote it: its key, the ETag the store gave that write and the record.
 * A commit protocol that can carry it from the task to the driver ({@link io.objectcommit.direct.spark
 * .DirectCommitProtocol}) hands it to job commit, which then reads the record only if the store's listing shows
 * another ETag under its key (another attempt changed it since). Records over {@link #MAX_BYTES} are not carried.
 */
public final class CommittedTaskRecord implements Serializable {

  private static final long serialVersionUID = 1L;

  /**
   * The largest record carried to the driver: {@value} bytes (a task of several thousand files). Larger records are
   * read from the store at job commit, so that the driver holds at most this much per task beyond what Spark holds.
   */
  public static final int MAX_BYTES = 1 << 20;

  private final String key;
  private final String etag;
  private final byte[] json;

  private CommittedTaskRecord(String key, String etag, byte[] json) {
    this.key = Objects.requireNonNull(key, "key");
    this.etag = Objects.requireNonNull(etag, "etag");
    this.json = json;
  }

  /**
   * The record {@code record} written under {@code key} with ETag {@code etag}, or null when it cannot be carried
   * (no ETag known, or larger than {@link #MAX_BYTES}).
   */
  public static CommittedTaskRecord of(String key, String etag, DirectTaskRecord record) throws IOException {
    if (etag == null || etag.isEmpty()) {
      return null;
    }
    byte[] json = DirectTaskRecord.CODEC.toBytes(record);
    return json.length > MAX_BYTES ? null : new CommittedTaskRecord(key, etag, json);
  }

  /** The record's key in the bucket. */
  public String key() {
    return key;
  }

  /** The ETag of the write that stored this record, without quotes. */
  public String etag() {
    return etag;
  }

  /**
   * The record, parsed and validated.
   *
   * @param path the record's path, for errors
   */
  public DirectTaskRecord record(String path) throws CorruptRecordException {
    return DirectTaskRecord.CODEC.fromBytes(json, path);
  }

  @Override
  public String toString() {
    return key + " (ETag " + etag + ", " + json.length + " bytes)";
  }
}
