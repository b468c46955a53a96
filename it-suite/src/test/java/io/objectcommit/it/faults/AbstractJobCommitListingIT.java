package io.objectcommit.it.faults;

import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.RequestCounts;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario: a Parquet write (20,000 rows as 4 files) committed while listings are inconsistent. Keys of the
 * second task's file ({@code part-00001-}) written in the last {@value #WINDOW_SECONDS} s are missing from LIST
 * results; everything else, and every HEAD/GET, is consistent. A subclass names the committer and asserts the
 * {@link Outcome}: the stock ones that the loss happens silently, ours that the result is exact.
 */
@S3IntegrationTest
public abstract class AbstractJobCommitListingIT {

  private static final Logger LOG = LoggerFactory.getLogger(AbstractJobCommitListingIT.class);
  public static final long ROWS = 20_000;
  public static final int FILES = 4;
  public static final long SEED = 4_2024;
  /** Longer than the whole write takes even on a loaded machine, so that every listing of the job sees the lag. */
  public static final long WINDOW_SECONDS = 60;

  /** What the write did. */
  public static final class Outcome {
    /** The exception the write threw, or null if Spark reported success. */
    public final Throwable failure;
    public final boolean successMarker;
    /** Parquet files directly in the table directory. */
    public final List<String> dataFiles;
    /** Objects left under {@code _temporary/} or {@code __magic/}. */
    public final List<String> leftovers;
    public final SmokeJob.Result read;
    public final RequestCounts counts;

    Outcome(Throwable failure, boolean successMarker, List<String> dataFiles, List<String> leftovers,
        SmokeJob.Result read, RequestCounts counts) {
      this.failure = failure;
      this.successMarker = successMarker;
      this.dataFiles = dataFiles;
      this.leftovers = leftovers;
      this.read = read;
      this.counts = counts;
    }

    @Override
    public String toString() {
      return "failure=" + failure + ", _SUCCESS=" + successMarker + ", files=" + dataFiles + ", leftovers=" + leftovers + ", read=" + read
          + ", requests: " + counts;
    }
  }

  protected abstract CommitterContender contender();

  protected abstract void verify(Outcome outcome);

  /** The plan under which the write runs. */
  public static FaultPlan plan() {
    return FaultPlan.builder(SEED).listingInconsistency(Duration.ofSeconds(WINDOW_SECONDS))
        .listingOnly("part-00001-").build();
  }

  @Test
  void writeWhileListingsLag(S3TestBucket bucket) throws IOException {
    String table = bucket.s3a("table");
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("job-commit-listing", "local[2]", proxied.s3aOptions(),
            contender().sparkConf())) {
      proxied.runStoreChecks(); // once per bucket and JVM: not part of the job's requests counted below
      proxied.proxy().setFaults(plan());
      Throwable failure = null;
      try {
        SmokeJob.write(spark, table, ROWS, FILES);
      } catch (Exception e) { // SparkException is checked but not declared by Scala
        failure = e;
      }
      RequestCounts counts = proxied.proxy().counts();
      proxied.proxy().setFaults(FaultPlan.none());
      List<String> keys = bucket.listKeys("table/");
      String top = bucket.key("table/");
      List<String> data = keys.stream().map(k -> k.substring(top.length()))
          .filter(k -> k.endsWith(".parquet") && !k.contains("/")).collect(Collectors.toList());
      List<String> leftovers = keys.stream().map(k -> k.substring(top.length()))
          .filter(k -> k.startsWith("_temporary/") || k.startsWith("__magic/")).collect(Collectors.toList());
      SmokeJob.Result read = data.isEmpty() ? new SmokeJob.Result(0, 0, 0, 0) : SmokeJob.read(spark, table);
      Outcome outcome = new Outcome(failure, keys.contains(bucket.key("table/_SUCCESS")), data, leftovers, read,
          counts);
      LOG.info("{} under listing inconsistency: {}", contender().name(), outcome);
      verify(outcome);
    }
  }
}
