package io.objectcommit.store;

/** A whole object read into memory, with its metadata (ETag for a later compare-and-swap). */
public final class StoredBytes {

  private final ObjectInfo info;
  private final byte[] data;

  public StoredBytes(ObjectInfo info, byte[] data) {
    this.info = info;
    this.data = data;
  }

  public ObjectInfo info() {
    return info;
  }

  /** The bytes (not copied: do not modify). */
  public byte[] data() {
    return data;
  }
}
