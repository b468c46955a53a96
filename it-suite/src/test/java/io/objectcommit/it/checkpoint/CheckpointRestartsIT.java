package io.objectcommit.it.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.AbstractStreamingRestartIT;
import io.objectcommit.it.faults.CheckpointContender;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.FaultPlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A stateful query (count by key, complete mode) checkpointing to the checkpoint FileSystem is stopped and
 * restarted five times, one new input file each run, while the store's listings lag and its 404s are negatively
 * cached (the reproduction's seed). After every run the state is exactly right and no micro-batch ran twice; with
 * Spark's default state store and with the RocksDB state store; on the S3 backend (through the fault proxy) and
 * on the local-path backend.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class CheckpointRestartsIT {

  private static final int RESTARTS = 5;
  private static final String ROCKSDB =
      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  @ParameterizedTest(name = "{0} backend, {1} state store")
  @CsvSource({"s3, hdfs", "s3, rocksdb", "local, hdfs", "local, rocksdb"})
  void restartsGiveExactCounts(String backend, String stateStore, S3TestBucket bucket, @TempDir Path input,
      @TempDir Path efs) throws Exception {
    CheckpointContender contender = "s3".equals(backend) ? ObjectCommitCheckpoints.s3()
        : ObjectCommitCheckpoints.local(efs);
    Map<String, String> conf = new HashMap<>(contender.sparkConf());
    if ("rocksdb".equals(stateStore)) {
      conf.put("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
    }
    StreamInput in = new StreamInput(input);
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("checkpoint-restarts", "local[2]", proxied.s3aOptions(), conf)) {
      proxied.proxy().setFaults(FaultPlan.builder(AbstractStreamingRestartIT.SEED)
          .listingInconsistency(Duration.ofSeconds(60)).negativeCaching(Duration.ofSeconds(60)).build());
      String checkpoint = contender.location(proxied, "restarts/checkpoint");
      List<Long> allBatches = new ArrayList<>();
      for (int run = 0; run <= RESTARTS; run++) {
        CountingQuery.clear();
        StreamingQuery q = CountingQuery.start(spark, input, checkpoint);
        try {
          in.addFile(run);
          q.processAllAvailable();
        } finally {
          q.stop();
        }
        assertTrue(q.exception().isEmpty(), "run " + run + ": " + q.exception());
        List<Long> batches = CountingQuery.batches();
        assertEquals(List.of((long) run), batches, "run " + run + " processes exactly its one new batch");
        assertTrue(allBatches.stream().noneMatch(batches::contains), "no batch twice: " + allBatches + batches);
        allBatches.addAll(batches);
        assertEquals(StreamInput.expectedCounts(run + 1), CountingQuery.lastCounts(), "exact state after run " + run);
      }
      assertTrue(proxied.proxy().counts().total() > 0 || "local".equals(backend));
    }
  }
}
