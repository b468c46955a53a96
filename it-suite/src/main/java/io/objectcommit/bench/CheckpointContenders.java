package io.objectcommit.bench;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.testsupport.NfsLikeMount;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The checkpoint contenders in the order they run: stock {@code s3a://} with Spark's default (FileContext-based)
 * checkpoint manager, with Spark's FileSystem-based manager, with spark-hadoop-cloud's
 * {@code AbortableStreamBasedCheckpointFileManager}; objectcommit's {@code ckpt://} on the S3 manifest backend and
 * on the local-path backend (a local directory standing in for an EFS/NFS mount) and on the local-path backend
 * over an NFS-like mount (test-support's FUSE model of an NFS client, Linux default caching, with a latency per
 * round trip to its server), when FUSE is available. The {@code ckpt://} settings are the ones a user sets; the
 * FileSystem cache stays on, as in production.
 */
public final class CheckpointContenders {

  /** Authority of the local-path backend. */
  static final String LOCAL_AUTHORITY = "bench-efs";
  /** Authority of the local-path backend on the NFS-like mount. */
  static final String NFS_AUTHORITY = "bench-nfs";

  private CheckpointContenders() {
  }

  /**
   * All contenders.
   *
   * @param localRoot the directory the local-path backend maps {@code ckpt://bench-efs/} to
   * @param nfsMount the NFS-like mount {@code ckpt://bench-nfs/} maps to, or null (FUSE unavailable: no contender)
   * @param nfsLatencyMs the latency per round trip of that mount, for the contender's name
   */
  public static List<CheckpointContender> all(Path localRoot, Path nfsMount, double nfsLatencyMs) {
    List<CheckpointContender> all = new ArrayList<>(List.of(
        s3a(Targets.STOCK_DEFAULT, null),
        s3a("s3a:// FileSystem-based manager", fileSystemBasedManager()),
        s3a("s3a:// AbortableStream manager (spark-hadoop-cloud)",
            "org.apache.spark.internal.io.cloud.AbortableStreamBasedCheckpointFileManager"),
        new CheckpointContender(Targets.CKPT_S3, where -> "ckpt://" + where + "checkpoint",
            ckpt(), true),
        local(localRoot)));
    if (nfsMount != null) {
      all.add(nfs(nfsMount, nfsLatencyMs));
    }
    return List.copyOf(all);
  }

  /**
   * Spark's FileSystem-based checkpoint manager of the running Spark: Spark 4.1 moved it from
   * {@code org.apache.spark.sql.execution.streaming} to {@code ...streaming.checkpointing}.
   */
  static String fileSystemBasedManager() {
    String[] candidates = {
        "org.apache.spark.sql.execution.streaming.checkpointing.FileSystemBasedCheckpointFileManager",
        "org.apache.spark.sql.execution.streaming.FileSystemBasedCheckpointFileManager"};
    for (String name : candidates) {
      try {
        Class.forName(name, false, CheckpointContenders.class.getClassLoader());
        return name;
      } catch (ClassNotFoundException e) {
        // not this Spark's package: try the next
      }
    }
    throw new IllegalStateException("No FileSystemBasedCheckpointFileManager on the class path: tried "
        + String.join(", ", candidates));
  }

  private static CheckpointContender s3a(String name, String managerClass) {
    Map<String, String> conf = managerClass == null ? Map.of()
        : Map.of("spark.sql.streaming.checkpointFileManagerClass", managerClass);
    return new CheckpointContender(name, where -> "s3a://" + where + "checkpoint", conf, true);
  }

  private static Map<String, String> ckpt() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("spark.hadoop.fs.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFileSystem");
    m.put("spark.hadoop.fs.AbstractFileSystem.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFs");
    m.put("spark.sql.streaming.checkpointFileManagerClass", "io.objectcommit.checkpoint.CheckpointFileManagerImpl");
    return m;
  }

  private static CheckpointContender local(Path root) {
    Map<String, String> m = ckpt();
    m.put("spark.hadoop.fs.objectcommit.bucket." + LOCAL_AUTHORITY + ".checkpoint.backend", "local");
    m.put("spark.hadoop.fs.objectcommit.bucket." + LOCAL_AUTHORITY + ".checkpoint.local.root",
        root.toAbsolutePath().toString());
    // The run's S3 location names a fresh directory under the one mount, so that the cached FileSystem of the
    // authority serves every run.
    return new CheckpointContender(Targets.CKPT_LOCAL,
        where -> "ckpt://" + LOCAL_AUTHORITY + "/" + where.replace('/', '_') + "/checkpoint", m, false);
  }

  private static CheckpointContender nfs(Path mount, double latencyMs) {
    Map<String, String> m = ckpt();
    String p = "spark.hadoop.fs.objectcommit.bucket." + NFS_AUTHORITY + ".checkpoint.";
    m.put(p + "backend", "local");
    m.put(p + "local.root", mount.toAbsolutePath().toString());
    m.put(p + "local.fs-type", NfsLikeMount.FS_TYPE);
    // test-only: the mount check reads the NFS options the NFS-like mount publishes
    m.put("spark.hadoop." + CheckpointConstants.LOCAL_TEST_NFS_LIKE_TYPE, NfsLikeMount.FS_TYPE);
    return new CheckpointContender(String.format(Locale.ROOT,
        "objectcommit ckpt:// local-path backend on NFS-like mount (%s ms per round trip)",
        new DecimalFormat("0.##").format(latencyMs)),
        where -> "ckpt://" + NFS_AUTHORITY + "/" + where.replace('/', '_') + "/checkpoint", m, false);
  }
}
