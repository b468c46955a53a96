package io.objectcommit.it.faults;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** objectcommit's checkpoint FileSystem as a contender: the S3 manifest backend and the local-path backend. */
public final class ObjectCommitCheckpoints {

  private ObjectCommitCheckpoints() {
  }

  /** The settings that enable {@code ckpt://}, as a user sets them. */
  static Map<String, String> common() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("spark.hadoop.fs.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFileSystem");
    m.put("spark.hadoop.fs.AbstractFileSystem.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFs");
    m.put("spark.sql.streaming.checkpointFileManagerClass", "io.objectcommit.checkpoint.CheckpointFileManagerImpl");
    // Every FileSystem.get a fresh instance with a cold manifest cache, as a restarted process would have.
    m.put("spark.hadoop.fs.ckpt.impl.disable.cache", "true");
    return m;
  }

  /** {@code ckpt://<bucket>/...} on the S3 manifest backend, through the test's proxy. */
  public static CheckpointContender s3() {
    return CheckpointContender.of("ckpt:// S3 manifest backend", ObjectCommitCheckpoints::s3Location, common());
  }

  /**
   * {@code ckpt://<bucket>/...} on the S3 manifest backend with Spark's own default checkpoint manager (the
   * FileContext-based one, which writes a temporary file and renames it): only the two {@code fs.*.impl} settings.
   */
  public static CheckpointContender s3WithSparkDefaultManager() {
    Map<String, String> m = common();
    m.remove("spark.sql.streaming.checkpointFileManagerClass");
    return CheckpointContender.of("ckpt:// S3 manifest backend, Spark's default checkpoint manager",
        ObjectCommitCheckpoints::s3Location, m);
  }

  /** Spark's own manager for file systems with abortable streams (spark-hadoop-cloud). */
  public static final String SPARK_ABORTABLE_MANAGER =
      "org.apache.spark.internal.io.cloud.AbortableStreamBasedCheckpointFileManager";

  /**
   * {@code ckpt://<bucket>/...} on the S3 manifest backend with Spark's
   * {@code AbortableStreamBasedCheckpointFileManager} (FileContext-based: it writes each checkpoint file directly to
   * its final path and aborts the stream on cancel), which needs {@code fs.AbstractFileSystem.ckpt.impl} and the
   * abortable-stream path capability.
   */
  public static CheckpointContender s3WithSparkAbortableManager() {
    Map<String, String> m = common();
    m.put("spark.sql.streaming.checkpointFileManagerClass", SPARK_ABORTABLE_MANAGER);
    return CheckpointContender.of("ckpt:// S3 manifest backend, Spark's AbortableStreamBasedCheckpointFileManager",
        ObjectCommitCheckpoints::s3Location, m);
  }

  /** {@code ckpt://efs/...} on the local-path backend rooted at {@code root} (the EFS/NFS stand-in). */
  public static CheckpointContender local(Path root) {
    Map<String, String> m = common();
    m.put("spark.hadoop.fs.objectcommit.bucket.efs.checkpoint.backend", "local");
    m.put("spark.hadoop.fs.objectcommit.bucket.efs.checkpoint.local.root", root.toString());
    return CheckpointContender.of("ckpt:// local-path backend", (bucket, relative) -> "ckpt://efs/" + relative, m);
  }

  private static String s3Location(ProxiedBucket bucket, String relative) {
    return "ckpt://" + bucket.bucket().name() + "/" + bucket.bucket().prefix() + relative;
  }
}
