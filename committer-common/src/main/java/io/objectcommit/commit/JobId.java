package io.objectcommit.commit;

import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * The job's unique id, the same on the driver and in every task attempt, and where it came from:
 * {@value CommitConstants#SPARK_WRITE_JOB_UUID} (Spark SQL, which also puts it in its file names), else
 * {@value CommitConstants#JOB_UUID}, else the Hadoop job id. It is used in object keys: letters, digits, '_', '.',
 * '-' only.
 *
 * <p>Job setup resolves it and pins it in the job configuration ({@link #pinTo}); tasks and job commit then resolve
 * the pinned id first. Spark 4.2 calls job setup before it sets {@value CommitConstants#SPARK_WRITE_JOB_UUID}, so
 * job setup sees only the Hadoop job id while the tasks would see Spark's UUID: pinned, both use the one job setup
 * chose.
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
    String pinned = conf.getTrimmed(CommitConstants.INTERNAL_JOB_ID, "");
    if (!pinned.isEmpty()) {
      return new JobId(check(pinned, CommitConstants.INTERNAL_JOB_ID),
          conf.getTrimmed(CommitConstants.INTERNAL_JOB_ID_SOURCE, CommitConstants.INTERNAL_JOB_ID));
    }
    for (String key : new String[] {CommitConstants.SPARK_WRITE_JOB_UUID, CommitConstants.JOB_UUID}) {
      String v = conf.getTrimmed(key, "");
      if (!v.isEmpty()) {
        return new JobId(check(v, key), key);
      }
    }
    String hadoop = hadoopJobId == null || hadoopJobId.isEmpty()
        ? conf.getTrimmed(CommitConstants.HADOOP_JOB_ID_KEY, "") : hadoopJobId;
    if (hadoop.isEmpty()) {
      throw new IllegalArgumentException("No job id: the engine gave none; set " + CommitConstants.JOB_UUID);
    }
    return new JobId(check(hadoop, "the Hadoop job id"), HADOOP_JOB_ID);
  }

  /**
   * Job setup: resolves the id afresh (a pinned id left in {@code jobConf} by an earlier job is dropped first) and
   * pins it there, so that the tasks and job commit, which get this configuration, use the same id whatever the
   * engine adds to it after job setup.
   */
  public static JobId setUp(Configuration jobConf, String hadoopJobId) {
    jobConf.unset(CommitConstants.INTERNAL_JOB_ID);
    jobConf.unset(CommitConstants.INTERNAL_JOB_ID_SOURCE);
    return resolve(jobConf, hadoopJobId).pinTo(jobConf);
  }

  /** Records this id in {@code jobConf} as the one tasks and job commit use ({@link #resolve} finds it first). */
  public JobId pinTo(Configuration jobConf) {
    jobConf.set(CommitConstants.INTERNAL_JOB_ID, id);
    jobConf.set(CommitConstants.INTERNAL_JOB_ID_SOURCE, source);
    return this;
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
