package io.objectcommit.direct.impl;

import static io.objectcommit.direct.DirectCommitterConstants.BOOKKEEPING_DIR;
import static io.objectcommit.direct.DirectCommitterConstants.WORK_SCHEME;

import io.objectcommit.commit.Destination;
import io.objectcommit.commit.JobAbortMarker;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;

/**
 * Where a job writes: the bucket and key prefix of the destination, and the keys of everything the committer
 * writes there.
 *
 * <pre>
 *   prefix/part-...                                       output files (final keys, written by tasks)
 *   prefix/_SUCCESS                                       written by job commit only
 *   prefix/_objectcommit_direct/JOB/tasks/m-000003.json   one record per task (removed by job commit/abort)
 *   prefix/_objectcommit_direct/JOB/job.json              commit marker (removed with the records)
 *   prefix/_objectcommit_direct/JOB/job-aborted.json      job-abort marker (written by job abort, kept)
 *   prefix/_objectcommit_direct/probe/check-UUID/...       the store guarantee check's objects while it runs
 * </pre>
 *
 * A task's work path is {@code ocdirect://bucket/ATTEMPT/prefix}: the writers' paths under it map onto the final
 * keys {@code prefix/...}, and the first path segment tells the write-only work file system which attempt writes.
 */
public final class OutputLocation {

  /** The bookkeeping directory of the store guarantee check's objects (never a job id: those are UUIDs). */
  static final String PROBE_DIR = "probe/";

  private final Destination destination;

  private OutputLocation(Destination destination) {
    this.destination = destination;
  }

  /**
   * The location of an output path.
   *
   * @throws io.objectcommit.commit.UnsupportedDestinationException for a path that is not on S3
   *     ({@code s3a://}, {@code s3://}, {@code s3n://} with a bucket)
   */
  public static OutputLocation of(Path destination) {
    return new OutputLocation(Destination.of(destination, "direct committer"));
  }

  public Path destination() {
    return destination.path();
  }

  public String bucket() {
    return destination.bucket();
  }

  /** The key prefix of the destination: empty (bucket root) or ending with '/'. */
  public String prefix() {
    return destination.prefix();
  }

  /** Prefix of all bookkeeping of all jobs under this destination. */
  public String bookkeepingRoot() {
    return prefix() + BOOKKEEPING_DIR + "/";
  }

  /**
   * Where the store guarantee check writes (and deletes) its objects when one runs: in the bookkeeping, which the job
   * writes anyway, outside every job's records (a job's commit or abort deletes its own; {@code pendingJobs} skips
   * this one).
   */
  public String probePrefix() {
    return bookkeepingRoot() + PROBE_DIR;
  }

  /** Prefix of one job's bookkeeping. */
  public String jobPrefix(String jobId) {
    return bookkeepingRoot() + jobId + "/";
  }

  public String tasksPrefix(String jobId) {
    return jobPrefix(jobId) + "tasks/";
  }

  public String taskRecordKey(String jobId, String taskName) {
    return tasksPrefix(jobId) + taskName + ".json";
  }

  public String jobMarkerKey(String jobId) {
    return jobPrefix(jobId) + "job.json";
  }

  /**
   * The job-abort marker's key: job abort creates it before it reads the task records, and it stays, so that a task
   * attempt still running after the abort finds it at task commit (committer-common's {@link JobAbortMarker}).
   */
  public String jobAbortedKey(String jobId) {
    return jobPrefix(jobId) + "job-aborted.json";
  }

  public JobAbortMarker abortMarker(String jobId) {
    return new JobAbortMarker(jobAbortedKey(jobId), jobId);
  }

  public String successKey() {
    return destination.successKey();
  }

  /** The work path of a task attempt. */
  public Path workPath(String attemptId) {
    String prefix = prefix();
    String tail = prefix.isEmpty() ? "" : "/" + prefix.substring(0, prefix.length() - 1);
    return new Path(WORK_SCHEME + "://" + bucket() + "/" + attemptId + tail);
  }

  /** True for a key a task may write: under the destination, outside the bookkeeping, not the success marker. */
  public boolean isOutputKey(String key) {
    String prefix = prefix();
    return key.startsWith(prefix) && key.length() > prefix.length() && !key.startsWith(bookkeepingRoot())
        && !key.equals(successKey());
  }

  /** The stable name of a task across its attempts, such as {@code m-000003}. */
  public static String taskName(TaskAttemptID attempt) {
    TaskID task = attempt.getTaskID();
    return TaskID.getRepresentingCharacter(task.getTaskType()) + "-" + String.format("%06d", task.getId());
  }

  /** The record name of the {@code n}-th task of a type ({@code 'm'} or {@code 'r'}). */
  public static String taskName(char type, int n) {
    return type + "-" + String.format("%06d", n);
  }

  @Override
  public String toString() {
    return destination.toString();
  }
}
