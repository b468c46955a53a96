package io.objectcommit.store;

import java.util.Objects;

/**
 * One entry of a listing of object versions ({@link ObjectStore#listVersions}): a version of an object, or a delete
 * marker (what a DELETE leaves on a versioned bucket instead of removing the object), and whether it is its key's
 * current entry. On a bucket whose versioning was never turned on every object is one current version whose id is
 * {@code "null"}.
 */
public final class ObjectVersion {

  private final String key;
  private final String versionId;
  private final boolean latest;
  private final boolean deleteMarker;
  private final long size;
  private final long lastModified;

  public ObjectVersion(String key, String versionId, boolean latest, boolean deleteMarker, long size,
      long lastModified) {
    this.key = Objects.requireNonNull(key, "key");
    this.versionId = versionId;
    this.latest = latest;
    this.deleteMarker = deleteMarker;
    this.size = size;
    this.lastModified = lastModified;
  }

  public String key() {
    return key;
  }

  /** The version id ({@code "null"} for an object written while versioning was off). */
  public String versionId() {
    return versionId;
  }

  /** True for the key's current entry: what a GET without a version id reads (or, for a marker, its 404). */
  public boolean isLatest() {
    return latest;
  }

  public boolean isDeleteMarker() {
    return deleteMarker;
  }

  /** True for a version that is neither current nor a delete marker: what NoncurrentVersionExpiration removes. */
  public boolean isNoncurrent() {
    return !latest && !deleteMarker;
  }

  /** Size in bytes (0 for a delete marker). */
  public long size() {
    return size;
  }

  /** Milliseconds since the epoch, or 0 when the store did not say. */
  public long lastModified() {
    return lastModified;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ObjectVersion)) {
      return false;
    }
    ObjectVersion that = (ObjectVersion) o;
    return key.equals(that.key) && Objects.equals(versionId, that.versionId) && latest == that.latest
        && deleteMarker == that.deleteMarker && size == that.size && lastModified == that.lastModified;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, versionId);
  }

  @Override
  public String toString() {
    return key + " (version " + versionId + (deleteMarker ? ", delete marker" : ", " + size + " bytes")
        + (latest ? ", current" : ", noncurrent") + ")";
  }
}
