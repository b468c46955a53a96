package io.objectcommit.store.audit;

import java.util.Objects;

/**
 * Who sends a store's requests, as the component that opened the store knows it: the component, and where there
 * is one the job and the task attempt. Every request of the store names them in its attribution header
 * ({@link RequestAttribution}). Immutable.
 *
 * <p>The job is the component's own id of the job (the committers' job id, which Spark's write job UUID gives;
 * null where the component has none, such as the checkpoint file system, whose requests name the streaming query
 * when Spark says which one runs on the thread). The task attempt is the Hadoop task attempt the store works for
 * (null for a job's own work on the driver: job setup, commit and abort).
 */
public final class AuditContext {

  /** The checkpoint file system ({@code ckpt://}): {@value}. */
  public static final String CHECKPOINT = "checkpoint";
  /** The direct committer: {@value}. */
  public static final String DIRECT = "direct";
  /** The staging committer: {@value}. */
  public static final String STAGING = "staging";
  /** The Delta Lake log store ({@code io.objectcommit.delta.ConditionalPutLogStore}): {@value}. */
  public static final String DELTA = "delta";
  /** The read cache's file system ({@code io.objectcommit.readcache.CachingS3AFileSystem}): {@value}. */
  public static final String READ_CACHE = "read-cache";
  /** The {@code objectcommit} command: {@value}. */
  public static final String CLI = "cli";
  /** A program using the store module directly ({@code ObjectStores.open} without a context): {@value}. */
  public static final String STORE = "store";

  /** The context of a store opened without one. */
  public static final AuditContext UNNAMED = new AuditContext(STORE, null, null);

  private final String component;
  private final String jobId;
  private final String taskAttemptId;

  private AuditContext(String component, String jobId, String taskAttemptId) {
    this.component = Objects.requireNonNull(component, "component");
    this.jobId = emptyToNull(jobId);
    this.taskAttemptId = emptyToNull(taskAttemptId);
  }

  /** The requests of {@code component} (one of the constants of this class), outside any job. */
  public static AuditContext of(String component) {
    return new AuditContext(component, null, null);
  }

  /** The same, for the job {@code jobId} (null or empty: none). */
  public AuditContext withJob(String id) {
    return new AuditContext(component, id, taskAttemptId);
  }

  /** The same, for the task attempt {@code attemptId} (null or empty: none). */
  public AuditContext withTaskAttempt(String attemptId) {
    return new AuditContext(component, jobId, attemptId);
  }

  public String component() {
    return component;
  }

  /** The job, or null. */
  public String jobId() {
    return jobId;
  }

  /** The task attempt, or null. */
  public String taskAttemptId() {
    return taskAttemptId;
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof AuditContext)) {
      return false;
    }
    AuditContext c = (AuditContext) o;
    return component.equals(c.component) && Objects.equals(jobId, c.jobId)
        && Objects.equals(taskAttemptId, c.taskAttemptId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(component, jobId, taskAttemptId);
  }

  @Override
  public String toString() {
    return component + (jobId == null ? "" : " job " + jobId) + (taskAttemptId == null ? "" : " task attempt "
        + taskAttemptId);
  }
}
