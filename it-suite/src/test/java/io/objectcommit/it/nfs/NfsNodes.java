package io.objectcommit.it.nfs;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.testsupport.NfsClientOptions;
import io.objectcommit.testsupport.NfsLikeMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The nodes of a cluster that share one EFS-like file system: one backing directory, one NFS-like mount per node
 * (each a separate NFS client with its own caches). A node reaches a checkpoint either through objectcommit's
 * {@code ckpt://} local-path backend (authority per node, its root the node's mount, settings as a user sets them
 * plus the test-only key that lets the mount check read the NFS-like mount's options) or naively through
 * {@code file://} on its mount.
 */
final class NfsNodes implements AutoCloseable {

  private static final AtomicInteger SEQ = new AtomicInteger();
  static final String MANAGER_KEY = "spark.sql.streaming.checkpointFileManagerClass";
  static final String OUR_MANAGER = "io.objectcommit.checkpoint.CheckpointFileManagerImpl";

  private final List<NfsLikeMount> mounts = new ArrayList<>();
  private final List<String> authorities = new ArrayList<>();

  /** Mounts one client per name of {@code nodes}, each with {@code options}, under {@code dir}. */
  static NfsNodes mount(Path dir, NfsClientOptions options, String... nodes) throws IOException {
    NfsNodes n = new NfsNodes();
    int seq = SEQ.incrementAndGet();
    Path base = Files.createDirectories(dir.resolve("run-" + seq + "-" + System.nanoTime()));
    try {
      for (String node : nodes) {
        n.mounts.add(NfsLikeMount.mount(base.resolve("backing"), base.resolve(node), options, base));
        n.authorities.add(node + seq);
      }
    } catch (IOException | RuntimeException e) {
      n.close();
      throw e;
    }
    return n;
  }

  NfsLikeMount mount(int node) {
    return mounts.get(node);
  }

  /** Where node {@code node} finds {@code rel} through objectcommit's local-path backend. */
  String ours(int node, String rel) {
    return "ckpt://" + authorities.get(node) + "/" + rel;
  }

  /** Where node {@code node} finds {@code rel} through a plain {@code file://} path on its mount. */
  String naive(int node, String rel) {
    return mounts.get(node).path().resolve(rel).toUri().toString();
  }

  /** The Hadoop settings a user sets for the {@code ckpt://} authorities of every node. */
  Map<String, String> hadoopSettings(String unsafeMount) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("fs.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFileSystem");
    m.put("fs.AbstractFileSystem.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFs");
    // test-only: the NFS-like FUSE mounts are checked as NFS mounts, with the NFS options they publish
    m.put(CheckpointConstants.LOCAL_TEST_NFS_LIKE_TYPE, NfsLikeMount.FS_TYPE);
    for (int i = 0; i < mounts.size(); i++) {
      String p = "fs.objectcommit.bucket." + authorities.get(i) + ".checkpoint.";
      m.put(p + "backend", "local");
      m.put(p + "local.root", mounts.get(i).path().toString());
      m.put(p + "local.fs-type", NfsLikeMount.FS_TYPE);
      if (unsafeMount != null) {
        m.put(p + "local.unsafe-mount", unsafeMount);
      }
    }
    return m;
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (NfsLikeMount m : mounts) {
      try {
        m.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
