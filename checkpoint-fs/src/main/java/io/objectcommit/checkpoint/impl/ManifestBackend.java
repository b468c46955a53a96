package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.checkpoint.CheckpointFencedException;
import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.checkpoint.files.DirManifest.Entry;
import io.objectcommit.store.ObjectStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The S3 backend: the namespace is a tree of {@link DirManifest}s, each changed only by one conditional write;
 * file bytes live in immutable data objects named after the logical path plus a unique suffix. No operation
 * depends on LIST or COPY. See docs/checkpoint-format.md.
 */
public final class ManifestBackend implements Backend {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestBackend.class);

  private final ObjectStore store;
  private final ManifestStore manifests;
  private final String prefix;
  private final long ancestorTtlMs;
  private final long manifestTtlMs;
  private final InlineLimits inline;
  private final OutputBuffers buffers;
  private final String owner;
  /**
   * The owner stamps this process writes with, by {@link #fenceKey}; empty unless a caller took or was given
   * ownership ({@link #takeOwnership}, {@link #writeAs}). Shared by the instances of one JVM ({@link Fences}).
   */
  private final Map<String, DirManifest.Owner> fences;
  /** The files being written, so that a file and its checksum file closed at once cost one manifest write. */
  private final ChecksumPairs pairs;

  /** The backend of one bucket, with the options of its authority. */
  public ManifestBackend(ObjectStore store, CheckpointOptions options, String owner) throws IOException {
    this(store, options.s3Prefix(), options.ancestorTtlMs(), options.manifestTtlMs(), options.casAttempts(),
        options.missingReadAttempts(), new OutputBuffers(options.bufferMemory(), options.bufferDir()), owner,
        InlineLimits.of(options), Fences.of(options.testFenceScope()), options.checksumPairWaitMs());
  }

  /**
   * @param prefix key prefix of the namespace inside the bucket ("" or ending with '/')
   * @param inline which files are kept inside their directory's manifest
   * @param fences the owner stamps of this process ({@link Fences})
   * @param checksumPairWaitMs how long a file's publication waits for its checksum file's ({@link ChecksumPairs})
   */
  ManifestBackend(ObjectStore store, String prefix, long ancestorTtlMs, long manifestTtlMs, int casAttempts,
      int missingReadAttempts, OutputBuffers buffers, String owner, InlineLimits inline,
      Map<String, DirManifest.Owner> fences, long checksumPairWaitMs) throws IOException {
    this.store = store;
    this.prefix = prefix;
    this.manifests = new ManifestStore(store, prefix, casAttempts, missingReadAttempts, System::currentTimeMillis,
        Thread::sleep);
    manifests.ensureRoot();
    this.ancestorTtlMs = ancestorTtlMs;
    this.manifestTtlMs = manifestTtlMs;
    this.buffers = buffers;
    this.owner = owner;
    this.inline = inline;
    this.fences = fences;
    this.pairs = new ChecksumPairs(manifests, checksumPairWaitMs);
  }

  String prefix() {
    return prefix;
  }

  ManifestStore manifests() {
    return manifests;
  }

  ObjectStore store() {
    return store;
  }

  // ------------------------------------------------------------------------------------------ resolution

  /** A directory found by path: its id and (validated) manifest. */
  static final class Dir {
    final String id;
    final String path;
    final ManifestStore.Cached cached;

    Dir(String id, String path, ManifestStore.Cached cached) {
      this.id = id;
      this.path = path;
      this.cached = cached;
    }

    Entry entry(String name) {
      return cached.manifest.entries.get(name);
    }
  }

  static List<String> components(Path p) {
    List<String> out = new ArrayList<>();
    for (String s : p.toUri().getPath().split("/")) {
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  static String pathString(List<String> comps, int n) {
    return n == 0 ? "/" : "/" + String.join("/", comps.subList(0, n));
  }

  /**
   * Walks from the root to the directory at {@code comps[0..n)}. Ancestors are trusted for the ancestor TTL, the
   * target for the manifest TTL; a missing or non-directory entry is only believed from a read sent during this
   * walk (else the manifest is read again).
   *
   * @throws FileNotFoundException if a component is missing
   * @throws ParentNotDirectoryException if a component is a file
   */
  Dir resolve(List<String> comps, int n) throws IOException {
    long sentBefore = manifests.requestsSent();
    String id = DirManifest.ROOT_ID;
    ManifestStore.Cached c = manifests.get(id, "/", n == 0 ? manifestTtlMs : ancestorTtlMs);
    for (int i = 0; i < n; i++) {
      String name = comps.get(i);
      Entry e = c.manifest.entries.get(name);
      if ((e == null || !e.isDir()) && !c.sentAfter(sentBefore)) {
        c = manifests.get(id, pathString(comps, i), 0); // do not believe a stale "missing"
        e = c.manifest.entries.get(name);
      }
      if (e == null) {
        throw new FileNotFoundException(pathString(comps, i + 1) + ": no such file or directory");
      }
      if (!e.isDir()) {
        throw new ParentNotDirectoryException(pathString(comps, i + 1) + " is a file, not a directory");
      }
      id = e.id;
      c = manifests.get(id, pathString(comps, i + 1), i + 1 == n ? manifestTtlMs : ancestorTtlMs);
    }
    return new Dir(id, pathString(comps, n), c);
  }

  private FileStatus status(Path path, Entry e) {
    return new FileStatus(e.isDir() ? 0 : e.size, e.isDir(), 1, CheckpointConstants.BLOCK_SIZE, e.mtime, 0, null,
        owner, owner, path);
  }

  private FileStatus rootStatus(Path path) {
    return new FileStatus(0, true, 1, CheckpointConstants.BLOCK_SIZE, 0, 0, null, owner, owner, path);
  }

  // ------------------------------------------------------------------------------------------- queries

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    List<String> comps = components(path);
    if (comps.isEmpty()) {
      return rootStatus(path);
    }
    Dir parent = resolveParent(comps, path);
    Entry e = parent.entry(last(comps));
    if (e == null) {
      throw new FileNotFoundException(path + ": no such file or directory");
    }
    return status(path, e);
  }

  private Dir resolveParent(List<String> comps, Path path) throws IOException {
    try {
      return resolve(comps, comps.size() - 1);
    } catch (ParentNotDirectoryException e) {
      FileNotFoundException fnf = new FileNotFoundException(path + ": no such file or directory (" + e.getMessage()
          + ")");
      fnf.initCause(e);
      throw fnf;
    }
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    List<String> comps = components(path);
    if (!comps.isEmpty()) {
      FileStatus st = getFileStatus(path);
      if (!st.isDirectory()) {
        return new FileStatus[] {st};
      }
    }
    Dir dir = resolve(comps, comps.size());
    List<FileStatus> out = new ArrayList<>();
    for (Map.Entry<String, Entry> e : dir.cached.manifest.entries.entrySet()) {
      out.add(status(new Path(path, e.getKey()), e.getValue()));
    }
    return out.toArray(new FileStatus[0]);
  }

  // ------------------------------------------------------------------------------------------- changes

  @Override
  public boolean mkdirs(Path path) throws IOException {
    mkdirsAndGetId(components(path), components(path).size(), path);
    return true;
  }

  /**
   * Creates the missing directories along {@code comps[0..n)}; returns the last one's id. Writes need no fresh
   * reads: cached manifests are used as they are, and a stale one only makes a conditional write fail, after
   * which it is read again (a directory created meanwhile by someone else is then found and used).
   */
  String mkdirsAndGetId(List<String> comps, int n, Path path) throws IOException {
    String id = DirManifest.ROOT_ID;
    for (int i = 0; i < n; i++) {
      String name = comps.get(i);
      String parentPath = pathString(comps, i);
      ManifestStore.Cached c = manifests.get(id, parentPath, Long.MAX_VALUE);
      Entry e = c.manifest.entries.get(name);
      if (e == null) {
        String newId = UUID.randomUUID().toString();
        String childPath = pathString(comps, i + 1);
        // The child's manifest first: nothing ever refers to a manifest that does not exist (a crash here leaves
        // an unreferenced manifest, which gc removes).
        manifests.createEmpty(newId, childPath, fenceFor(comps, i + 1, "mkdir " + childPath));
        try {
          e = manifests.update(id, parentPath, fenceFor(comps, i, "mkdir " + childPath), m -> {
            Entry cur = m.entries.get(name);
            if (cur != null) {
              return cur; // someone else created it meanwhile: no write
            }
            m.entries.put(name, Entry.dir(newId, System.currentTimeMillis()));
            return Entry.dir(newId, 0);
          });
        } catch (CheckpointFencedException fenced) {
          Garbage.delete(store, manifests.manifestKey(newId), "unlinked manifest of " + childPath);
          throw fenced;
        }
        if (!newId.equals(e.id)) {
          store.delete(manifests.manifestKey(newId)); // lost the race: another process made it
        }
        LOG.debug("mkdir {} ({})", childPath, e.id);
      }
      if (!e.isDir()) {
        throw new ParentNotDirectoryException(pathString(comps, i + 1) + " is a file, not a directory (making "
            + path + ")");
      }
      id = e.id;
    }
    return id;
  }

  @Override
  public FSDataOutputStream create(Path path, boolean overwrite, boolean createParent) throws IOException {
    List<String> comps = components(path);
    if (comps.isEmpty()) {
      throw new FileAlreadyExistsException(path + ": cannot create the root directory as a file");
    }
    String name = last(comps);
    String parentId;
    if (createParent) {
      parentId = mkdirsAndGetId(comps, comps.size() - 1, path);
    } else {
      parentId = resolve(comps, comps.size() - 1).id;
    }
    String parentPath = pathString(comps, comps.size() - 1);
    // An early answer from the cached listing; the conditional write at close is the check that counts.
    Entry existing = manifests.get(parentId, parentPath, Long.MAX_VALUE).manifest.entries.get(name);
    if (existing != null && (existing.isDir() || !overwrite)) {
      throw new FileAlreadyExistsException(path + (existing.isDir() ? " is a directory" : " already exists"));
    }
    String dataKey = prefix + pathString(comps, comps.size()).substring(1) + "~"
        + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    ManifestPublication publication = new ManifestPublication(store, manifests, path, parentId, parentPath, name,
        dataKey, overwrite, inline, fenceFor(comps, comps.size() - 1, "create " + pathString(comps, comps.size())),
        pairs.register(parentId, name));
    return AtomicOutputStream.open(path, buffers.newBuffer(), publication);
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    FileStatus st = getFileStatus(path);
    if (st.isDirectory()) {
      throw new FileNotFoundException(path + " is a directory");
    }
    List<String> comps = components(path);
    Entry e = resolveParent(comps, path).entry(last(comps));
    if (e.isInline()) {
      return new FSDataInputStream(ObjectSeekableStream.ofBytes(e.inlineBytes(), path.toString()));
    }
    return new FSDataInputStream(new ObjectSeekableStream(store, e.data, e.size, path.toString()));
  }

  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    List<String> comps = components(path);
    if (comps.isEmpty()) {
      return deleteRootChildren(path, recursive);
    }
    Dir parent;
    try {
      parent = resolve(comps, comps.size() - 1);
    } catch (FileNotFoundException | ParentNotDirectoryException e) {
      return false;
    }
    String name = last(comps);
    Entry current = parent.entry(name);
    if (current == null) {
      current = manifests.get(parent.id, parent.path, 0).manifest.entries.get(name);
      if (current == null) {
        return false;
      }
    }
    if (current.isDir() && !recursive && !manifests.get(current.id, parent.path, 0).manifest.entries.isEmpty()) {
      throw new PathIsNotEmptyDirectoryException(path.toString());
    }
    Entry removed = manifests.update(parent.id, parent.path,
        fenceFor(comps, comps.size() - 1, "delete " + pathString(comps, comps.size())), m -> m.entries.remove(name));
    if (removed == null) {
      return false;
    }
    cleanUp(removed, path.toString());
    return true;
  }

  private boolean deleteRootChildren(Path root, boolean recursive) throws IOException {
    Dir dir = resolve(List.of(), 0);
    if (dir.cached.manifest.entries.isEmpty()) {
      return true;
    }
    if (!recursive) {
      throw new PathIsNotEmptyDirectoryException(root.toString());
    }
    for (String name : new ArrayList<>(dir.cached.manifest.entries.keySet())) {
      delete(new Path(root, name), true);
    }
    return true;
  }

  /** Removes what an unlinked entry referenced: its data object, or a directory's subtree. */
  private void cleanUp(Entry removed, String path) throws IOException {
    if (!removed.isDir()) {
      if (!removed.isInline()) {
        Garbage.delete(store, removed.data, "deleted " + path);
      }
      return;
    }
    List<String> keys = new ArrayList<>();
    collect(removed.id, path, keys);
    Garbage.deleteAll(store, keys, "deleted directory " + path);
  }

  private void collect(String dirId, String path, List<String> keys) throws IOException {
    ManifestStore.Cached c = manifests.get(dirId, path, 0);
    for (Map.Entry<String, Entry> e : c.manifest.entries.entrySet()) {
      if (e.getValue().isDir()) {
        collect(e.getValue().id, path + "/" + e.getKey(), keys);
      } else if (!e.getValue().isInline()) {
        keys.add(e.getValue().data);
      }
    }
    if (c.etag != null) {
      keys.add(manifests.manifestKey(dirId));
    }
    manifests.forget(dirId);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    return new ManifestRename(this).rename(src, dst);
  }

  // --------------------------------------------------------------------------------------------- fencing

  /**
   * The fence of a change of the directory at {@code comps[0..n)}: the stamp of the innermost location this
   * instance owns that contains it, or {@link Fence#NONE}. No request.
   */
  Fence fenceFor(List<String> comps, int n, String operation) {
    if (fences.isEmpty()) {
      return Fence.NONE;
    }
    for (int i = n; i >= 0; i--) {
      DirManifest.Owner o = fences.get(fenceKey(pathString(comps, i)));
      if (o != null) {
        return Fence.of(o).forOperation(operation);
      }
    }
    return Fence.NONE;
  }

  /** The key of a location in {@link Fences}: this namespace's {@code s3://bucket/prefix} and the path. */
  private String fenceKey(String location) {
    return store.pathOf(prefix) + location;
  }

  @Override
  public long takeOwnership(Path location, String ownerId) throws IOException {
    DirManifest.Owner mine = new ManifestTakeover(this).takeOver(location, ownerId);
    fences.put(fenceKey(mine.location), mine);
    return mine.epoch;
  }

  @Override
  public void writeAs(Path location, String ownerId, long epoch) {
    if (epoch < 1) {
      throw new IllegalArgumentException("epoch of " + location + " must be at least 1, not " + epoch);
    }
    List<String> comps = components(location);
    String loc = pathString(comps, comps.size());
    fences.put(fenceKey(loc), new DirManifest.Owner(loc, epoch, ownerId));
  }

  @Override
  public long epoch(Path location) {
    List<String> comps = components(location);
    DirManifest.Owner o = fences.get(fenceKey(pathString(comps, comps.size())));
    return o == null ? 0 : o.epoch;
  }

  @Override
  public IOStatistics statistics() {
    return store.getIOStatistics();
  }

  @Override
  public String describe() {
    return "S3 manifest backend on " + store.pathOf(prefix);
  }

  @Override
  public void close() throws IOException {
    store.close();
  }

  static String last(List<String> comps) {
    return comps.get(comps.size() - 1);
  }
}
