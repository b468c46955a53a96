package io.objectcommit.it.delta;

import io.objectcommit.testsupport.PlainS3;
import io.objectcommit.testsupport.S3TestBucket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Delta settings of the ITs' Spark sessions, and a table's log as the bucket holds it (read with the test's own
 * client, not through the log store under test).
 */
final class DeltaTables {

  /** Our log store, as a user names it. */
  static final String OBJECTCOMMIT_LOG_STORE = "io.objectcommit.delta.ConditionalPutLogStore";
  /** Delta's default for s3a:// tables, safe only with every writer in one driver. */
  static final String STOCK_LOG_STORE = "io.delta.storage.S3SingleDriverLogStore";

  /** A commit file's key: {@code .../_delta_log/<20 digits>.json}. */
  static final Pattern COMMIT_KEY = Pattern.compile(".*/_delta_log/(\\d{20})\\.json");
  /** The regex the fault rules match on a request's path: commit files only. */
  static final String COMMIT_PATH_REGEX = "/_delta_log/\\d{20}\\.json$";

  private static final Pattern USER_METADATA = Pattern.compile("\"userMetadata\":\"([^\"]*)\"");

  private DeltaTables() {
  }

  /** The Spark settings of a Delta session whose s3a:// (and s3://) tables commit through {@code logStoreClass}. */
  static Map<String, String> sparkConf(String logStoreClass) {
    return sparkConf(logStoreClass, logStoreClass);
  }

  /**
   * The Spark settings of a Delta session whose s3a:// tables commit through {@code s3aLogStore} and s3:// tables
   * through {@code s3LogStore}: Delta picks a table's log store by its URI's scheme.
   */
  static Map<String, String> sparkConf(String s3aLogStore, String s3LogStore) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension");
    m.put("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    m.put("spark.delta.logStore.s3a.impl", s3aLogStore);
    m.put("spark.delta.logStore.s3.impl", s3LogStore);
    // Speed only (nothing the log store sees changes): Delta rebuilds a snapshot's state in 50 tasks by default,
    // which on local[1] in several JVMs on two cores costs seconds per commit.
    m.put("spark.databricks.delta.snapshotPartitions", "1");
    return m;
  }

  /** One commit file of the log: its version and the transaction's {@code userMetadata} (null if none). */
  static final class Commit {
    final long version;
    final String userMetadata;

    Commit(long version, String userMetadata) {
      this.version = version;
      this.userMetadata = userMetadata;
    }

    @Override
    public String toString() {
      return version + ":" + userMetadata;
    }
  }

  /** Every commit file under the table's {@code _delta_log/}, by version. */
  static List<Commit> commits(S3TestBucket bucket, String table) {
    // The SDK-free client: the ITs run on the Spark 4 lines too, whose class path has no AWS SDK v1.
    PlainS3 s3 = bucket.plain();
    TreeMap<Long, Commit> byVersion = new TreeMap<>();
    for (String key : bucket.listKeys(table + "/_delta_log/")) {
      Matcher k = COMMIT_KEY.matcher(key);
      if (!k.matches()) {
        continue;
      }
      String body = s3.getObjectAsString(bucket.name(), key);
      Matcher m = USER_METADATA.matcher(body);
      long v = Long.parseLong(k.group(1));
      byVersion.put(v, new Commit(v, m.find() ? m.group(1) : null));
    }
    return new ArrayList<>(byVersion.values());
  }
}
