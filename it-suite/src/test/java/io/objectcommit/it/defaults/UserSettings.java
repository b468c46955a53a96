package io.objectcommit.it.defaults;

import io.objectcommit.testsupport.S3Endpoint;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The settings a user of {@code s3a://} already has, and the ones our quick start adds: nothing about
 * credential providers, retries or timeouts, which stay at Hadoop's defaults.
 */
final class UserSettings {

  static final String DIRECT = "io.objectcommit.direct.DirectParquetOutputCommitter";
  static final String STAGING = "io.objectcommit.staging.StagingParquetOutputCommitter";
  static final String PARQUET_COMMITTER = "spark.sql.parquet.output.committer.class";

  private UserSettings() {
  }

  /** Endpoint, region and path style; the keys too when {@code withKeys}. */
  static Map<String, String> s3a(S3Endpoint endpoint, boolean withKeys) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("fs.s3a.endpoint", endpoint.uri().toString());
    m.put("fs.s3a.endpoint.region", endpoint.region());
    m.put("fs.s3a.path.style.access", "true");
    if (withKeys) {
      m.put("fs.s3a.access.key", endpoint.accessKey());
      m.put("fs.s3a.secret.key", endpoint.secretKey());
    }
    return m;
  }

  /**
   * Whether micro-batch {@code batch} of the query checkpointed at {@code checkpoint} (a {@code ckpt://} URI) is
   * committed, read through {@code ckpt://} with the user's settings and the keys.
   */
  static boolean committed(S3Endpoint endpoint, String checkpoint, long batch) throws IOException {
    Configuration c = new Configuration();
    s3a(endpoint, true).forEach(c::set);
    c.set("fs.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFileSystem");
    Path p = new Path(checkpoint + "/commits/" + batch);
    try (FileSystem fs = FileSystem.newInstance(p.toUri(), c)) {
      return fs.exists(p);
    }
  }

  /** The Spark settings of the quick start: {@code ckpt://} and its checkpoint manager. */
  static Map<String, String> spark() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("spark.hadoop.fs.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFileSystem");
    m.put("spark.hadoop.fs.AbstractFileSystem.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFs");
    m.put("spark.sql.streaming.checkpointFileManagerClass", "io.objectcommit.checkpoint.CheckpointFileManagerImpl");
    return m;
  }
}
