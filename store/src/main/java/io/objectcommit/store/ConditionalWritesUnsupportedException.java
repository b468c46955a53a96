package io.objectcommit.store;

import org.apache.hadoop.fs.PathIOException;

/**
 * The store ignores or rejects conditional writes ({@code If-None-Match} / {@code If-Match}), on which
 * objectcommit's safety depends. Found by the check of {@link StoreConstants#CONDITIONAL_WRITES}{@code =detect},
 * which runs once per bucket and endpoint in a JVM, before anything unsafe is done; the refusal is cached, and
 * every later conditional write or capability query for that bucket and endpoint throws a new instance of this
 * exception without sending a request. The message names the store and the setting for the documented weaker
 * mode; {@link #store()}, {@link #bucket()} and {@link #setting()} carry them for programs.
 */
public class ConditionalWritesUnsupportedException extends PathIOException {

  private static final long serialVersionUID = 1L;

  private final String detail;
  private final String store;
  private final String bucket;
  private final String setting;

  /**
   * @param path    the probe object that showed the missing support
   * @param detail  what the store did, and what to do
   * @param store   the bucket and endpoint, for messages (never credentials)
   * @param bucket  the bucket
   * @param setting the key that chooses another mode ({@value StoreConstants#CONDITIONAL_WRITES})
   */
  public ConditionalWritesUnsupportedException(String path, String detail, String store, String bucket,
      String setting) {
    super(path, detail);
    this.detail = detail;
    this.store = store;
    this.bucket = bucket;
    this.setting = setting;
  }

  /** Without store and bucket (kept for callers of the first version). */
  public ConditionalWritesUnsupportedException(String path, String detail) {
    this(path, detail, null, null, StoreConstants.CONDITIONAL_WRITES);
  }

  /** The bucket and endpoint, e.g. {@code bucket 'b' at endpoint http://127.0.0.1:4566 (region us-east-1)}. */
  public String store() {
    return store;
  }

  public String bucket() {
    return bucket;
  }

  /** The setting that selects another mode: {@value StoreConstants#CONDITIONAL_WRITES}. */
  public String setting() {
    return setting;
  }

  /** A new instance with the same values (thrown for each call after the cached refusal). */
  public ConditionalWritesUnsupportedException copy() {
    return new ConditionalWritesUnsupportedException(getPath().toString(), detail, store, bucket, setting);
  }
}
