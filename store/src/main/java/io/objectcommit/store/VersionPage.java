package io.objectcommit.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One page of a listing of object versions ({@link ObjectStore#listVersions}): versions and delete markers in key
 * order, newest first within a key (the current entry first), and the markers of the next page. The entries are put
 * in that order here: SDK v2 answers versions and delete markers in two lists, and some S3-compatible stores
 * (LocalStack) send a page's delete markers before its versions.
 */
public final class VersionPage {

  private final List<ObjectVersion> versions;
  private final String nextKeyMarker;
  private final String nextVersionIdMarker;

  /**
   * @param nextKeyMarker the key marker of the next page, null on the last page
   * @param nextVersionIdMarker the version-id marker of the next page (null with a null key marker)
   */
  public VersionPage(List<ObjectVersion> versions, String nextKeyMarker, String nextVersionIdMarker) {
    List<ObjectVersion> sorted = new ArrayList<>(versions);
    sorted.sort(Comparator.comparing(ObjectVersion::key)
        .thenComparing(ObjectVersion::isLatest, Comparator.reverseOrder())
        .thenComparing(ObjectVersion::lastModified, Comparator.reverseOrder()));
    this.versions = List.copyOf(sorted);
    this.nextKeyMarker = nextKeyMarker;
    this.nextVersionIdMarker = nextKeyMarker == null ? null : nextVersionIdMarker;
  }

  public List<ObjectVersion> versions() {
    return versions;
  }

  /** The key marker of the next page, empty on the last page. */
  public Optional<String> nextKeyMarker() {
    return Optional.ofNullable(nextKeyMarker);
  }

  /** The version-id marker of the next page (null when there is none, or no next page). */
  public String nextVersionIdMarker() {
    return nextVersionIdMarker;
  }
}
