package io.objectcommit.delta;

import io.delta.storage.CloseableIterator;
import io.delta.storage.LogStore;
import io.objectcommit.delta.impl.LineIterator;
import io.objectcommit.delta.impl.LogLocation;
import io.objectcommit.store.ListPage;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.guarantee.ProbeSite;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Delta Lake {@link LogStore} for S3 and S3-compatible stores that commits a table version with one conditional
 * PUT ({@code If-None-Match: *}): of writers racing for one version, on any number of clusters, exactly one
 * creates the commit file and every other gets {@link java.nio.file.FileAlreadyExistsException}, which Delta's
 * optimistic concurrency turns into a conflict check and a retry at the next version. No lock table and no second
 * service: the store's conditional write is the lock. Name it in {@code spark.delta.logStore.s3a.impl} (and
 * {@code spark.delta.logStore.s3.impl}); every writer of a table must use it (docs/user-guide.md, "Delta Lake
 * tables").
 *
 * <p>All requests go through the store module ({@link ObjectStores#open}, configured from {@code fs.s3a.*} and
 * {@code fs.objectcommit.*}): its retries recognise their own earlier attempt (a retried PUT that meets the object it
 * wrote itself is the success it was, not a conflict, so Delta never commits the same transaction twice), and a
 * store whose conditional writes are not atomic is refused when the log store first opens its bucket
 * ({@link DeltaLogStoreConstants#STORE_GUARANTEES}).
 *
 * <ul>
 *   <li>{@link #write} with overwrite false (a commit, {@code <version>.json}): one conditional PUT (a multipart
 *       upload completed under the same condition from {@code fs.s3a.multipart.threshold} up); with overwrite true
 *       ({@code _last_checkpoint}): one plain PUT.
 *   <li>{@link #read}: one GET of the whole object, then its lines; {@link FileNotFoundException} when missing.
 *   <li>{@link #listFrom}: a LIST of the file's directory from the given name on (start-after: one request per
 *       1,000 names at or after it, however long the log before it), sorted by name; when nothing is at or after
 *       the name, one more LIST of one key tells an empty directory ({@link FileNotFoundException}, as on a file
 *       system) from a log with nothing new.
 *   <li>{@link #isPartialWriteVisible}: false, an object appears whole or not at all.
 * </ul>
 *
 * <p>Delta makes the log store by reflection with its Hadoop configuration, typically once per table (DeltaLog);
 * each bucket's store is opened at the first call that needs it, with that call's configuration, and kept for the
 * life of this object. Thread-safe.
 */
public class ConditionalPutLogStore extends LogStore {

  private static final Logger LOG = LoggerFactory.getLogger(ConditionalPutLogStore.class);
  private static final String WHO = "the Delta log store (" + ConditionalPutLogStore.class.getName() + ")";

  private final Map<String, ObjectStore> stores = new ConcurrentHashMap<>();

  /** The constructor Delta calls, by reflection, with its Hadoop configuration. */
  public ConditionalPutLogStore(Configuration initHadoopConf) {
    super(initHadoopConf);
  }

  /**
   * The store of the location's bucket, opened at its first use with the guarantee check (where the store policy
   * runs it: once per bucket and endpoint in the JVM), writing its probe objects under the table's root.
   */
  private ObjectStore store(LogLocation location, Configuration conf) throws IOException {
    ObjectStore existing = stores.get(location.bucket());
    if (existing != null) {
      return existing;
    }
    synchronized (stores) {
      existing = stores.get(location.bucket());
      if (existing != null) {
        return existing;
      }
      ObjectStore store = ObjectStores.open(location.bucket(), conf, AuditContext.of(AuditContext.DELTA));
      try {
        store.requireGuarantees(DeltaLogStoreConstants.STORE_GUARANTEES, WHO,
            ProbeSite.under(location.tablePrefix() + DeltaLogStoreConstants.PROBE_DIR)
                .forOperation("open the Delta log " + location.pathOf(location.parentPrefix())));
      } catch (IOException | RuntimeException e) {
        store.close();
        throw e;
      }
      LOG.info("Delta log store: commits to s3://{}/ by conditional PUT", location.bucket());
      stores.put(location.bucket(), store);
      return store;
    }
  }

  @Override
  public CloseableIterator<String> read(Path path, Configuration hadoopConf) throws IOException {
    LogLocation location = LogLocation.of(path);
    // The whole object in one GET, which the store retries whole on a reset: a log file is read in full anyway.
    byte[] bytes = store(location, hadoopConf).getBytes(location.key()).data();
    return new LineIterator(new ByteArrayInputStream(bytes), location.toString());
  }

  /**
   * Writes {@code actions}, one a line, each followed by '\n'. Not overwriting: an exclusive create, refused with
   * {@link java.nio.file.FileAlreadyExistsException} exactly when the object exists (another writer has that
   * version); overwriting: a plain PUT.
   */
  @Override
  public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration hadoopConf)
      throws IOException {
    LogLocation location = LogLocation.of(path);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (actions.hasNext()) {
      out.write((actions.next() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    Payload payload = Payload.of(out.toByteArray());
    ObjectStore store = store(location, hadoopConf);
    if (Boolean.TRUE.equals(overwrite)) {
      store.put(location.key(), payload, WriteCondition.none());
      return;
    }
    try {
      store.createExclusive(location.key(), payload);
    } catch (FileAlreadyExistsException e) {
      // The store's exception is Hadoop's; Delta's contract is java.nio's (the one its retry loop catches).
      java.nio.file.FileAlreadyExistsException conflict = new java.nio.file.FileAlreadyExistsException(
          location.toString(), null, "another writer created it first: " + e.getMessage());
      conflict.initCause(e);
      throw conflict;
    }
  }

  /**
   * The entries of the path's directory whose names are at or after the path's name, sorted by name: the objects
   * as files, the next level of prefixes ({@code _delta_log/_commits/}) as directories.
   *
   * <p>The LIST starts after the name without its last character (the greatest key S3 can be told to start
   * after that is surely before every name at or after it), so a long log is read from the name on, not whole.
   *
   * @throws FileNotFoundException if the directory has no entry at all (no table there)
   */
  @Override
  public Iterator<FileStatus> listFrom(Path path, Configuration hadoopConf) throws IOException {
    LogLocation location = LogLocation.of(path);
    ObjectStore store = store(location, hadoopConf);
    String dir = location.parentPrefix();
    String from = location.name();
    List<FileStatus> entries = new ArrayList<>();
    boolean any = false;
    String startAfter = from.isEmpty() ? null : dir + from.substring(0, from.offsetByCodePoints(from.length(), -1));
    String token = null;
    do {
      ListPage page = store.list(dir, "/", startAfter, token, 1000);
      for (ObjectInfo o : page.objects()) {
        String name = o.key().substring(dir.length());
        if (name.isEmpty()) {
          continue; // a directory marker object
        }
        any = true;
        if (name.compareTo(from) >= 0) {
          entries.add(new FileStatus(o.size(), false, 1, 0, o.lastModified(), location.pathOf(o.key())));
        }
      }
      for (String prefix : page.prefixes()) {
        any = true;
        String name = prefix.substring(dir.length(), prefix.length() - 1);
        if (name.compareTo(from) >= 0) {
          entries.add(new FileStatus(0, true, 1, 0, 0, location.pathOf(prefix)));
        }
      }
      token = page.nextToken().orElse(null);
    } while (token != null);
    if (!any && startAfter != null) {
      // nothing from the name on: is there anything in the directory at all?
      ListPage first = store.list(dir, "/", null, null, 1);
      any = !first.prefixes().isEmpty() || first.objects().stream().anyMatch(o -> o.key().length() > dir.length());
      if (!any && first.nextToken().isPresent()) {
        any = true; // only the directory marker on the first page, and more after it
      }
    }
    if (!any) {
      throw new FileNotFoundException(location.pathOf(dir) + ": listFrom " + from + ": no such directory");
    }
    entries.sort(Comparator.comparing(s -> s.getPath().getName()));
    return entries.iterator();
  }

  /** The path itself when it names its scheme and bucket; otherwise qualified by its file system. */
  @Override
  public Path resolvePathOnPhysicalStorage(Path path, Configuration hadoopConf) throws IOException {
    if (path.toUri().getScheme() != null && path.toUri().getAuthority() != null) {
      return path;
    }
    return path.getFileSystem(hadoopConf).makeQualified(path);
  }

  /** False: a write is visible whole or not at all (a PUT, or a multipart upload completed at once). */
  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration hadoopConf) {
    return false;
  }
}
