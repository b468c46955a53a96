package io.objectcommit.store;

import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.guarantee.StoreGuaranteeException;
import io.objectcommit.store.statistics.StoreStatistics;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * The one door to an object store bucket: every request objectcommit sends goes through an implementation of
 * this interface, so that each is counted ({@link #statistics()}) and faults can be injected in one place.
 *
 * <p>Keep it small: add a method only when a component needs an operation that cannot be composed from these.
 *
 * <p>Keys are object keys inside {@link #bucket()}, without a leading '/'. Every failure is an
 * {@link IOException} naming {@code s3://bucket/key} and the operation: {@link FileNotFoundException} for a missing
 * object or bucket, {@link java.nio.file.AccessDeniedException} for refused credentials or permissions,
 * {@link FileAlreadyExistsException} for a refused exclusive create, {@link ObjectChangedException} for a refused
 * compare-and-swap, {@link org.apache.hadoop.fs.PathIOException} for the rest. Transient failures (throttling,
 * 500s, resets, timeouts) are retried inside each method with capped, jittered exponential backoff.
 *
 * <p><b>S3 vs a file system.</b> S3 has no directories (a "directory" is a key prefix), no rename, no append and
 * no partial overwrite. A completed write is visible whole to every reader at once (AWS S3 is strongly
 * consistent since 2020; some S3-compatible stores are not, and their listings may lag: never rely on LIST for
 * correctness). A failed or interrupted write leaves the previous object (or none) in place, never a partial one.
 */
public interface ObjectStore extends Closeable, IOStatisticsSource {

  /** The bucket this store reads and writes. */
  String bucket();

  /** {@code s3://bucket/key}, as used in error messages. */
  default String pathOf(String key) {
    return "s3://" + bucket() + "/" + key;
  }

  /**
   * Writes an object: one PUT below the multipart threshold, else a multipart upload completed at the end.
   *
   * <p>With {@link WriteCondition#ifAbsent()} the write succeeds only if no object exists at the key (exclusive
   * create; of racing writers exactly one wins), else {@link FileAlreadyExistsException}. With
   * {@link WriteCondition#ifMatch(String)} it succeeds only if the current object has that ETag, else
   * {@link ObjectChangedException}, or {@link FileNotFoundException} if the object is gone. A retried request
   * that meets its own earlier successful write is recognised (each write carries a unique id in its metadata)
   * and reported as the success it was, not as a conflict.
   *
   * <p>Partial failure: nothing becomes visible unless the whole write succeeds. A multipart upload that fails is
   * aborted; if the abort fails too, the upload stays incomplete (invisible, but billed) until
   * {@link #abortMultipartUpload} or a bucket lifecycle rule removes it.
   *
   * @return the new object's key and ETag (size -1 and time 0 when the store's answer lacks them)
   */
  ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException;

  /** {@link #put} with {@link WriteCondition#ifAbsent()}: exclusive create. */
  default ObjectInfo createExclusive(String key, Payload payload) throws IOException {
    return put(key, payload, WriteCondition.ifAbsent());
  }

  /** {@link #put} with {@link WriteCondition#ifMatch(String)}: compare-and-swap overwrite. */
  default ObjectInfo replaceIfMatch(String key, Payload payload, String etag) throws IOException {
    return put(key, payload, WriteCondition.ifMatch(etag));
  }

  /**
   * Reads a whole object into memory with its ETag (for read-modify-write with {@link #replaceIfMatch}).
   *
   * @throws FileNotFoundException if there is no object at the key
   */
  StoredBytes getBytes(String key) throws IOException;

  /**
   * Reads a whole object unless it still has ETag {@code etag} ({@code If-None-Match}): revalidates a cached copy
   * with one request that carries no body when nothing changed.
   *
   * @return empty when the object still has that ETag
   * @throws FileNotFoundException if there is no object at the key
   */
  Optional<StoredBytes> getBytesIfChanged(String key, String etag) throws IOException;

  /**
   * Opens a stream over bytes {@code [start, end)} of an object ({@code end} -1: to the end). The caller closes
   * it; closing early aborts the HTTP connection rather than draining a large remainder.
   *
   * @throws FileNotFoundException if there is no object at the key
   */
  default InputStream open(String key, long start, long end) throws IOException {
    return open(key, start, end, null);
  }

  /**
   * {@link #open(String, long, long)} pinned to one object: the GET carries {@code If-Match: "<ifMatchEtag>"}, so
   * the bytes are those of the object with that ETag or none at all (a reader that caches ranges never mixes two
   * versions of an object). Null sends no condition. S3 checks the condition once, when the response starts:
   * an overwrite after that does not disturb the body being read (S3 keeps serving the old object's bytes).
   *
   * @throws ObjectChangedException if the object no longer has ETag {@code ifMatchEtag} (412)
   * @throws FileNotFoundException if there is no object at the key
   */
  InputStream open(String key, long start, long end, String ifMatchEtag) throws IOException;

  /** The object's metadata (one HEAD), or empty when there is none. */
  Optional<ObjectInfo> head(String key) throws IOException;

  /**
   * One page of the keys under {@code prefix} in key order (at most {@code maxKeys}, at most 1,000). With a
   * delimiter (normally "/"), keys below the next delimiter are rolled up into {@link ListPage#prefixes()}.
   * Listings of some S3-compatible stores lag behind writes and deletes: use them for housekeeping and
   * diagnostics, never to decide what is committed.
   */
  default ListPage list(String prefix, String delimiter, String continuationToken, int maxKeys) throws IOException {
    return list(prefix, delimiter, null, continuationToken, maxKeys);
  }

  /**
   * As {@link #list(String, String, String, int)}, from the first key or common prefix after {@code startAfter}
   * (ListObjectsV2's {@code start-after}; null lists from the start of the prefix): a listing that needs only the
   * tail of a long key range reads it in as many pages as the tail needs, not the whole range. The store ignores
   * {@code startAfter} once a continuation token is given (the token already says where the listing is).
   */
  ListPage list(String prefix, String delimiter, String startAfter, String continuationToken, int maxKeys)
      throws IOException;

  /**
   * One page of the object versions and delete markers under {@code prefix} (ListObjectVersions; at most
   * {@code maxKeys}, at most 1,000), in key order and newest first within a key, from the markers of the previous
   * page (null for the first). On a versioned bucket every overwrite leaves the previous version behind as a
   * noncurrent version, and every DELETE leaves a delete marker: both are billed until a lifecycle rule expires
   * them. On a bucket whose versioning was never on, each object is one current version. For housekeeping reports
   * ({@code objectcommit checkpoint gc}); needs {@code s3:ListBucketVersions}.
   */
  VersionPage listVersions(String prefix, String keyMarker, String versionIdMarker, int maxKeys) throws IOException;

  /**
   * Copies an object to another key of this bucket inside the store (one CopyObject: no bytes pass through this
   * process), only while the source still has ETag {@code sourceEtag}, so that what is copied is the object the
   * caller means; a null {@code sourceEtag} copies whatever object is there (for objects that never change). The copy replaces any object at {@code targetKey}; it gets the store's encryption settings and
   * none of the source's user metadata. A source of more than 5 GiB is refused by S3 (a single CopyObject's limit).
   *
   * @return the copy's key and ETag (size -1, time 0); its ETag equals the source's when the source was written in
   *     one PUT and the store's encryption leaves ETags as MD5s
   * @throws ObjectChangedException if the source's ETag is no longer {@code sourceEtag}
   * @throws FileNotFoundException if there is no object at {@code sourceKey}
   */
  ObjectInfo copy(String sourceKey, String sourceEtag, String targetKey) throws IOException;

  /** Deletes one object; deleting a missing object succeeds (S3 semantics). */
  void delete(String key) throws IOException;

  /**
   * Deletes one object only while it still has ETag {@code ifMatchEtag} (DeleteObject with {@code If-Match}): what
   * is deleted is the object the caller decided to delete, never a newer one written at the key since. A null
   * {@code ifMatchEtag} deletes unconditionally ({@link #delete(String)}). Deleting a missing object succeeds.
   *
   * <p>Not every store honours the condition (Amazon S3 does since 2025; docs/stores.md lists what was tested):
   * ask {@link #conditionalDeletes} first and use {@link #delete(String)} where it answers false. A store that
   * rejects the header (LocalStack answers 501) fails with an {@link IOException} and keeps the object.
   *
   * @throws ObjectChangedException if the object's ETag is no longer {@code ifMatchEtag}: nothing was deleted
   */
  void delete(String key, String ifMatchEtag) throws IOException;

  /**
   * Whether {@link #delete(String, String)} is honoured here ({@link StoreGuarantee#IF_MATCH_DELETE}): on the store
   * {@link ObjectStores#open} returns, checked at most once per bucket and endpoint as
   * {@code fs.objectcommit.conditional-writes} says (writing where {@code site} says), trusted on Amazon S3 with
   * {@code detect} and {@code assume}, false with {@code emulate} and on a store that fails the check. Unlike
   * {@link #requireGuarantees} it never refuses: a component that gets false deletes unconditionally, as before
   * conditional deletes existed. The default, for stores that answer for themselves (the S3 store without the
   * policy around it sends the condition as given), is true.
   *
   * @param component who asks, for the log
   * @param site where the check may write
   */
  default boolean conditionalDeletes(String component, ProbeSite site) throws IOException {
    return true;
  }

  /**
   * Deletes many objects, 1,000 keys per request. Missing keys count as deleted.
   *
   * <p>Partial failure: batches are sent in order; if some keys of a batch are refused, the others of that batch
   * are deleted, no later batch is sent, and the {@link org.apache.hadoop.fs.PathIOException} names the refused
   * keys. Repeating the call is safe.
   *
   * @return the number of keys sent
   */
  int deleteBatch(Collection<String> keys) throws IOException;

  /**
   * Starts a multipart upload. Nothing is visible at the key until {@link #completeMultipartUpload}; an upload
   * that is never completed or aborted stays (invisible, billed) until aborted.
   */
  MultipartUpload initiateMultipartUpload(String key) throws IOException;

  /** Uploads one part (1 to 10,000; each but the last at least 5 MiB). A failed part can be sent again. */
  UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException;

  /**
   * Completes an upload: the object appears whole at its key. With {@link WriteCondition#ifAbsent()} it is
   * refused with {@link FileAlreadyExistsException} if an object exists at the key (which stays intact, and the
   * upload stays open, so the caller can abort it); a retry after an ambiguous failure that finds the upload
   * already completed by this call is reported as success.
   */
  ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts, WriteCondition condition)
      throws IOException;

  /** Aborts an upload and frees its parts. Aborting an upload that no longer exists succeeds. */
  void abortMultipartUpload(MultipartUpload upload) throws IOException;

  /** The incomplete uploads under a prefix (all pages). */
  List<MultipartUpload> listMultipartUploads(String prefix) throws IOException;

  /** What the store supports, probed once per bucket and JVM where the configuration asks for it. */
  StoreCapabilities capabilities() throws IOException;

  /**
   * Makes sure the store gives every guarantee a component relies on, before that component writes anything.
   * On the store {@link ObjectStores#open} returns, with {@code fs.objectcommit.conditional-writes=detect} (the
   * default) each guarantee is checked at most once per bucket and endpoint in the store's {@link StoreContext}
   * (the JVM's; {@link StoreGuarantee}, docs/stores.md); {@code assume} skips the check. The default
   * implementation, for stores that answer for themselves (the S3 store without the policy around it, test fakes),
   * only asks for {@link #capabilities()}.
   *
   * @param needed the guarantees the caller relies on
   * @param component who asks, named in the error
   * @throws StoreGuaranteeException (a {@link ConditionalWritesUnsupportedException}) naming the failed guarantee,
   *     the store and the remedy
   */
  default void requireGuarantees(Set<StoreGuarantee> needed, String component) throws IOException {
    capabilities();
  }

  /**
   * {@link #requireGuarantees(java.util.Set, String)} for a component that names where it is about to write: the
   * check, where it runs, writes its objects there (and deletes them), so that the permissions the component needs
   * are all the check needs ({@link ProbeSite}; {@code fs.objectcommit.probe.prefix}, when set, wins). A check that
   * cannot run names the site's operation, when it has one. The verdict stays the store's: where the check writes
   * does not change what it finds.
   *
   * @param site where the check may write, and the user's operation
   */
  default void requireGuarantees(Set<StoreGuarantee> needed, String component, ProbeSite site)
      throws IOException {
    requireGuarantees(needed, component);
  }

  /**
   * {@link #capabilities()} for a user's operation, which a failure of the probe names (for example
   * {@code initialize ckpt://bucket/}): the probe is often the first request sent to a bucket, so its failure
   * (no bucket, refused credentials, endpoint down) is what the user sees.
   */
  default StoreCapabilities capabilities(String operation) throws IOException {
    return capabilities();
  }

  /** Request statistics of this store instance. */
  StoreStatistics statistics();

  @Override
  default IOStatistics getIOStatistics() {
    return statistics().toIOStatistics();
  }
}
