package io.objectcommit.staging.impl;

import io.objectcommit.commit.CommitConstants;
import io.objectcommit.commit.Destination;
import io.objectcommit.commit.JobAbortMarker;
import io.objectcommit.staging.StagingConstants;
import java.util.Locale;
import org.apache.hadoop.fs.Path;

/**
 * Where a job's objects live: the destination's bucket and key prefix, the final key of each file, and the keys of
 * the job's task records ({@code <dest>/.objectcommit-staging/<jobId>/task-000042.json}), which job commit computes
 * from the task index instead of listing.
 */
public final class JobLayout {

  private final String scheme;
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
    this("s3a", bucket, destKey, jobId);
  }

  private JobLayout(String scheme, String bucket, String destKey, String jobId) {
    if (jobId == null || jobId.isEmpty() || jobId.contains("/")) {
      throw new IllegalArgumentException("bad job id '" + jobId + "'");
    }
    this.scheme = scheme;
    this.bucket = bucket;
    this.destPrefix = destKey.isEmpty() ? "" : destKey + "/";
    this.jobId = jobId;
    this.recordsPrefix = destPrefix + StagingConstants.STAGING_DIR_NAME + "/" + jobId + "/";
  }

  /**
   * The layout of a job writing to {@code dest}, by the committers' one destination rule ({@link Destination}).
   *
   * @throws io.objectcommit.commit.UnsupportedDestinationException for a path that is not on S3
   */
  public static JobLayout of(Path dest, String jobId) {
    Destination d = Destination.of(dest, "staging committer");
    String prefix = d.prefix();
    String scheme = d.path().toUri().getScheme().toLowerCase(Locale.ROOT);
    return new JobLayout(scheme, d.bucket(), prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1), jobId);
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

  /**
   * Where the store guarantee check writes (and deletes) its objects when one runs: in the staging area, which the
   * job writes anyway, outside every job's records ({@code <dest>/.objectcommit-staging/probe/}).
   */
  public String probePrefix() {
    return stagingPrefix() + "probe/";
  }

  /** The key of the record of task {@code index}. */
  public String taskRecordKey(int index) {
    return recordsPrefix + String.format(Locale.ROOT, "task-%06d.json", index);
  }

  /**
   * The key of the job-abort marker ({@code <dest>/.objectcommit-staging/<jobId>/job-aborted.json}): job abort
   * creates it before it looks for task records; a task commit that finds it after saving its record aborts its own
   * uploads (see {@link JobAbortStage}).
   */
  public String jobAbortedKey() {
    return recordsPrefix + "job-aborted.json";
  }

  /** The job-abort marker at {@link #jobAbortedKey()}: committer-common's, shared with the direct committer. */
  public JobAbortMarker abortMarker() {
    return new JobAbortMarker(jobAbortedKey(), jobId());
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
    return destPrefix + CommitConstants.SUCCESS_FILE;
  }

  /** The destination as the user wrote it ({@code s3a://bucket/path}, no trailing '/'). */
  public String destination() {
    String p = destPrefix.isEmpty() ? "" : destPrefix.substring(0, destPrefix.length() - 1);
    return scheme + "://" + bucket + "/" + p;
  }

  /**
   * What to tell a user whose job left pending uploads behind: the command that aborts them (cli-names:
   * {@code objectcommit uploads abort}), or a lifecycle rule.
   */
  public String leftoverUploadsHint() {
    return "run `objectcommit uploads abort " + destination() + " --older-than 0s` once no other job writes to "
        + destination() + ", or add a bucket lifecycle rule that aborts incomplete multipart uploads";
  }

  @Override
  public String toString() {
    return "s3://" + bucket + "/" + destPrefix + " (job " + jobId + ")";
  }
}
