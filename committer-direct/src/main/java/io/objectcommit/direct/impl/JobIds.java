package io.objectcommit.direct.impl;

import io.objectcommit.direct.DirectCommitterConstants;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobID;

/** The job's unique id (the same on the driver and in every task attempt) and where it came from. */
public final class JobIds {

  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

  private final String id;
  private final String source;

  private JobIds(String id, String source) {
    this.id = id;
    this.source = source;
  }

  /**
   * {@value DirectCommitterConstants#SPARK_WRITE_JOB_UUID} (Spark SQL), else
   * {@value DirectCommitterConstants#JOB_UUID}, else the Hadoop job id.
   */
  public static JobIds resolve(Configuration conf, JobID hadoopJobId) {
    for (String key : new String[] {DirectCommitterConstants.SPARK_WRITE_JOB_UUID, DirectCommitterConstants.JOB_UUID}) {
      String v = conf.getTrimmed(key, "");
      if (!v.isEmpty()) {
        return new JobIds(check(v, key), key);
      }
    }
    if (hadoopJobId == null) {
      throw new IllegalArgumentException("No job id: set " + DirectCommitterConstants.JOB_UUID);
    }
    return new JobIds(check(hadoopJobId.toString(), "the Hadoop job id"), "hadoop job id");
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

  public String source() {
    return source;
  }

  @Override
  public String toString() {
    return id + " (from " + source + ")";
  }
}
