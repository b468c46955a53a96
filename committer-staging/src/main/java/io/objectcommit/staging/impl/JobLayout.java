package io.objectcommit.staging.impl;

import io.objectcommit.staging.StagingConstants;
import java.net.URI;
import java.util.Locale;
import org.apache.hadoop.fs.Path;

/**
 * Where a job's objects live: the destination's bucket and key prefix, the final key of each file, and the keys of
 * the job's task records ({@code <dest>/.objectcommit-staging/<jobId>/task-000042.json}), which job commit computes
 * from the task index instead of listing.
 */
public final class JobLayout {

  private final String bucket;
  private final String destPrefix;
  private final String jobId;
  private final String recordsPrefix;

  /**
   * @param bucket the bucket
   * @param destKey the destination's key without leading or trailing '/' ({@code ""}: the bucket's root)
   * @param jobId the job's id (Spark's write UUID)
   */
  public JobLayout(String bucket, String destKey, String jobId) {
    if (jobId == null || jobId.isEmpty() || jobId.contains("/")) {
      throw new IllegalArgumentException("bad job id '" + jobId + "'");
    }
    this.bucket = bucket;
    this.destPrefix = destKey.isEmpty() ? "" : destKey + "/";
    this.jobId = jobId;
    this.recordsPrefix = destPrefix + StagingConstants.STAGING_DIR_NAME + "/" + jobId + "/";
  }

  /** The layout of a job writing to {@code dest}, an {@code s3a://bucket/path} (or s3://, s3n://) path. */
  public static JobLayout of(Path dest, String jobId) {
    URI uri = dest.toUri();
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.startsWith("s3") || uri.getHost() == null) {
      throw new IllegalArgumentException("the staging committer writes to s3a://bucket/path destinations, not " + dest);
    }
    String key = uri.getPath() == null ? "" : uri.getPath();
    while (key.startsWith("/")) {
      key = key.substring(1);
    }
    while (key.endsWith("/")) {
      key = key.substring(0, key.length() - 1);
    }
    return new JobLayout(uri.getHost(), key, jobId);
  }

  public String bucket() {
    return bucket;
  }

  public String jobId() {
    return jobId;
  }

  /** The destination's key prefix, ending with '/' (or {@code ""} at the bucket's root). */
  public String destPrefix() {
    return destPrefix;
  }

  /** The final key of a file at {@code relativePath} under the destination. */
  public String finalKey(String relativePath) {
    return destPrefix + relativePath;
  }

  /** The key prefix of everything this job stores besides its files. */
  public String recordsPrefix() {
    return recordsPrefix;
  }

  /** The key prefix of the records of every job writing to this destination. */
  public String stagingPrefix() {
    return destPrefix + StagingConstants.STAGING_DIR_NAME + "/";
  }

  /** The key of the record of task {@code index}. */
  public String taskRecordKey(int index) {
    return recordsPrefix + String.format(Locale.ROOT, "task-%06d.json", index);
  }

  /** The task index of a record key of this job, or -1. */
  public int taskIndexOf(String key) {
    if (!key.startsWith(recordsPrefix + "task-") || !key.endsWith(".json")) {
      return -1;
    }
    try {
      return Integer.parseInt(key.substring(recordsPrefix.length() + 5, key.length() - 5));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The key of {@code _SUCCESS}. */
  public String successKey() {
    return destPrefix + "_SUCCESS";
  }

  @Override
  public String toString() {
    return "s3://" + bucket + "/" + destPrefix + " (job " + jobId + ")";
  }
}
