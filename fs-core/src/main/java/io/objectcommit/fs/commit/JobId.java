package io.objectcommit.fs.commit;

import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * The job's unique id, the same on the driver and in every task attempt, and where it came from:
 * {@value CommitConstants#SPARK_WRITE_JOB_UUID} (Spark SQL, which also puts it in its file names), else
 * {@value CommitConstants#JOB_UUID}, else the Hadoop job id. It is used in object keys: letters, digits, '_', '.',
 * '-' only.
 */
public final class JobId {

  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

  /** {@link #source()} of an id taken from the Hadoop job id: {@value}. */
  public static final String HADOOP_JOB_ID = "JobID";

  private final String id;
  private final String source;

  private JobId(String id, String source) {
    this.id = id;
    this.source = source;
  }

  /**
   * Resolves the job id.
   *
   * @param hadoopJobId the Hadoop job id ({@code JobContext.getJobID().toString()}), null if none
   * @throws IllegalArgumentException naming the key of an unusable value, or when there is no id at all
   */
  public static JobId resolve(Configuration conf, String hadoopJobId) {
    for (String key : new String[] {CommitConstants.SPARK_WRITE_JOB_UUID, CommitConstants.JOB_UUID}) {
      String v = conf.getTrimmed(key, "");
      if (!v.isEmpty()) {
        return new JobId(check(v, key), key);
      }
    }
    if (hadoopJobId == null || hadoopJobId.isEmpty()) {
      throw new IllegalArgumentException("No job id: the engine gave none; set " + CommitConstants.JOB_UUID);
    }
    return new JobId(check(hadoopJobId, "the Hadoop job id"), HADOOP_JOB_ID);
  }

  /**
   * An id given directly (tests, tools).
   *
   * @throws IllegalArgumentException when {@code id} cannot be used in object keys
   */
  public static JobId of(String id, String source) {
    return new JobId(check(id, source), source);
  }

  private static String check(String v, String key) {
    if (!SAFE.matcher(v).matches()) {
      throw new IllegalArgumentException("Invalid value '" + v + "' of " + key
          + ": a job id is used in object keys: letters, digits, '_', '.', '-' only");
    }
    return v;
  }

  public String id() {
    return id;
  }

  /** The key the id came from, or {@value #HADOOP_JOB_ID}. */
  public String source() {
    return source;
  }

  @Override
  public String toString() {
    return id + " (from " + source + ")";
  }
}
