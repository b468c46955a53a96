package io.objectcommit.it.faults;


import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario: a stateful Structured Streaming query (file source, one file per micro-batch, count by key, complete
 * mode, {@code foreachBatch} sink) runs three micro-batches with a consistent store and stops; it restarts while
 * listings lag: the keys its checkpoint wrote during the last micro-batch are missing from LIST results (the
 * proxy's memory is cleared just before that batch and the window is {@value #WINDOW_SECONDS} s). One more
 * file arrives and the query processes it. A subclass names the checkpoint and asserts the {@link Outcome}.
 */
@S3IntegrationTest
public abstract class AbstractStreamingRestartIT {

  private static final Logger LOG = LoggerFactory.getLogger(AbstractStreamingRestartIT.class);
  public static final long SEED = 77;
  public static final long WINDOW_SECONDS = 60;
  public static final int FILES_BEFORE_STOP = 3;

  /** What the restarted query did. */
  public static final class Outcome {
    /** The restarted query's failure, or null. */
    public final Throwable failure;
    /** Micro-batch ids the first run completed, in order. */
    public final List<Long> firstRunBatches;
    /** Micro-batch ids the restarted run completed, in order. */
    public final List<Long> restartBatches;
    /** The counts by key of the last micro-batch output (complete mode: the whole state). */
    public final Map<Integer, Long> lastCounts;
    public final Map<Integer, Long> expectedCounts;

    Outcome(Throwable failure, List<Long> firstRunBatches, List<Long> restartBatches, Map<Integer, Long> lastCounts,
        Map<Integer, Long> expectedCounts) {
      this.failure = failure;
      this.firstRunBatches = firstRunBatches;
      this.restartBatches = restartBatches;
      this.lastCounts = lastCounts;
      this.expectedCounts = expectedCounts;
    }

    /** True if a batch id of the restarted run had already completed in the first run. */
    public boolean batchRunTwice() {
      return restartBatches.stream().anyMatch(firstRunBatches::contains);
    }

    @Override
    public String toString() {
      return "failure=" + (failure == null ? "none" : failure.getClass().getSimpleName() + ": " + rootMessage(failure))
          + ", first run batches " + firstRunBatches + ", restart batches " + restartBatches + ", last counts "
          + lastCounts + ", expected " + expectedCounts;
    }
  }

  protected abstract CheckpointContender contender();

  protected abstract void verify(Outcome outcome);

  static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c.getClass().getName() + ": " + c.getMessage();
  }

  @Test
  void restartWhileListingsLag(S3TestBucket bucket, @TempDir Path input) throws Exception {
    StreamInput in = new StreamInput(input);
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("streaming-restart", "local[2]", proxied.s3aOptions(),
            contender().sparkConf())) {
      String checkpoint = contender().location(proxied, "stream/checkpoint");
      CountingQuery.clear();
      StreamingQuery q = CountingQuery.start(spark, input, checkpoint);
      for (int i = 0; i < FILES_BEFORE_STOP; i++) {
        if (i == FILES_BEFORE_STOP - 1) {
          proxied.proxy().forgetHistory();
        }
        in.addFile(i);
        q.processAllAvailable();
      }
      q.stop();
      List<Long> first = CountingQuery.batches();
      CountingQuery.clear();

      proxied.proxy().setFaults(FaultPlan.builder(SEED).listingInconsistency(Duration.ofSeconds(WINDOW_SECONDS))
          .build());
      Throwable failure = null;
      try {
        StreamingQuery restarted = CountingQuery.start(spark, input, checkpoint);
        in.addFile(FILES_BEFORE_STOP);
        try {
          restarted.processAllAvailable();
        } finally {
          restarted.stop();
        }
        if (restarted.exception().isDefined()) {
          failure = restarted.exception().get();
        }
      } catch (Exception e) { // StreamingQueryException (checked, not declared by Scala) or a runtime failure
        failure = e;
      }
      proxied.proxy().setFaults(FaultPlan.none());
      Outcome o = new Outcome(failure, first, CountingQuery.batches(), CountingQuery.lastCounts(),
          StreamInput.expectedCounts(FILES_BEFORE_STOP + 1));
      LOG.info("{}: restart under listing inconsistency: {}", contender().name(), o);
      verify(o);
    }
  }
}
