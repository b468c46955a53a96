package io.objectcommit.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Every object under a prefix, over all pages of {@link ObjectStore#list} (1,000 keys a request). Listings may lag
 * behind writes on some stores: housekeeping and diagnostics only, never to decide what is committed.
 */
public final class Listings {

  /** Keys per LIST request: {@value}. */
  public static final int PAGE_SIZE = 1000;

  /** Receives one object of a listing. */
  @FunctionalInterface
  public interface ObjectConsumer {
    void accept(ObjectInfo object) throws IOException;
  }

  private Listings() {
  }

  /** Calls {@code consumer} for every object under {@code prefix}, in key order, page by page (no delimiter). */
  public static void forEach(ObjectStore store, String prefix, ObjectConsumer consumer) throws IOException {
    String token = null;
    do {
      ListPage page = store.list(prefix, null, token, PAGE_SIZE);
      for (ObjectInfo o : page.objects()) {
        consumer.accept(o);
      }
      token = page.nextToken().orElse(null);
    } while (token != null);
  }

  /** Receives one entry of a listing of versions. */
  @FunctionalInterface
  public interface VersionConsumer {
    void accept(ObjectVersion version) throws IOException;
  }

  /**
   * Calls {@code consumer} for every object version and delete marker under {@code prefix}, in key order (newest
   * first within a key), page by page ({@link ObjectStore#listVersions}).
   */
  public static void forEachVersion(ObjectStore store, String prefix, VersionConsumer consumer) throws IOException {
    String keyMarker = null;
    String versionIdMarker = null;
    do {
      VersionPage page = store.listVersions(prefix, keyMarker, versionIdMarker, PAGE_SIZE);
      for (ObjectVersion v : page.versions()) {
        consumer.accept(v);
      }
      keyMarker = page.nextKeyMarker().orElse(null);
      versionIdMarker = page.nextVersionIdMarker();
    } while (keyMarker != null);
  }

  /** Every object version and delete marker under {@code prefix}, in key order, newest first within a key. */
  public static List<ObjectVersion> versions(ObjectStore store, String prefix) throws IOException {
    List<ObjectVersion> all = new ArrayList<>();
    forEachVersion(store, prefix, all::add);
    return all;
  }

  /** Every object under {@code prefix}, in key order. */
  public static List<ObjectInfo> objects(ObjectStore store, String prefix) throws IOException {
    List<ObjectInfo> all = new ArrayList<>();
    forEach(store, prefix, all::add);
    return all;
  }

  /** Every key under {@code prefix}, in key order. */
  public static List<String> keys(ObjectStore store, String prefix) throws IOException {
    List<String> all = new ArrayList<>();
    forEach(store, prefix, o -> all.add(o.key()));
    return all;
  }
}
