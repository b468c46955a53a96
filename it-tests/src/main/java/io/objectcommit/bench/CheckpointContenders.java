package io.objectcommit.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checkpoint contenders in the order they run: stock {@code s3a://} with Spark's default (FileContext-based)
 * checkpoint manager, with Spark's FileSystem-based manager, with spark-hadoop-cloud's
 * {@code AbortableStreamBasedCheckpointFileManager}; objectcommit's {@code ckpt://} on the S3 manifest backend and
 * on the local-path backend (a local directory standing in for an EFS/NFS mount). The {@code ckpt://} settings
 * are the ones a user sets; the FileSystem cache stays on, as in production.
 */
public final class CheckpointContenders {

  /** Authority of the local-path backend. */
  static final String LOCAL_AUTHORITY = "bench-efs";

  private CheckpointContenders() {
  }

  /**
   * All contenders.
   *
   * @param localRoot the directory the local-path backend maps {@code ckpt://bench-efs/} to
   */
  public static List<CheckpointContender> all(Path localRoot) {
    return List.of(
        s3a("s3a:// FileContext manager (Spark default)", null),
        s3a("s3a:// FileSystem-based manager",
            "org.apache.spark.sql.execution.streaming.FileSystemBasedCheckpointFileManager"),
        s3a("s3a:// AbortableStream manager (spark-hadoop-cloud)",
            "org.apache.spark.internal.io.cloud.AbortableStreamBasedCheckpointFileManager"),
        new CheckpointContender("objectcommit ckpt:// S3 backend", where -> "ckpt://" + where + "checkpoint",
            ckpt(), true),
        local(localRoot));
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
    return new CheckpointContender("objectcommit ckpt:// local-path backend (EFS stand-in)",
        where -> "ckpt://" + LOCAL_AUTHORITY + "/" + where.replace('/', '_') + "/checkpoint", m, false);
  }
}
