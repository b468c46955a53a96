package io.objectcommit.it.checkpoint;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.AbstractStreamingRestartIT;
import io.objectcommit.it.faults.CheckpointContender;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
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
class CheckpointRestartsIT {

  private static final int RESTARTS = 5;
  private static final List<long[]> OUTPUT = Collections.synchronizedList(new ArrayList<>());
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
        OUTPUT.clear();
        StreamingQuery q = start(spark, input, checkpoint);
        try {
          in.addFile(run);
          q.processAllAvailable();
        } finally {
          q.stop();
        }
        assertTrue(q.exception().isEmpty(), "run " + run + ": " + q.exception());
        List<Long> batches = batches();
        assertEquals(List.of((long) run), batches, "run " + run + " processes exactly its one new batch");
        assertTrue(allBatches.stream().noneMatch(batches::contains), "no batch twice: " + allBatches + batches);
        allBatches.addAll(batches);
        assertEquals(StreamInput.expectedCounts(run + 1), lastCounts(), "exact state after run " + run);
      }
      assertTrue(proxied.proxy().counts().total() > 0 || "local".equals(backend));
    }
  }

  private static StreamingQuery start(SparkSession spark, Path input, String checkpoint) throws Exception {
    Dataset<Row> counts = spark.readStream().schema("value LONG").option("maxFilesPerTrigger", 1)
        .csv(input.toString())
        .groupBy(col("value").mod(StreamInput.KEYS).cast("int").as("k")).count();
    VoidFunction2<Dataset<Row>, Long> sink = (batch, id) -> {
      for (Row r : batch.collectAsList()) {
        OUTPUT.add(new long[] {id, r.getInt(0), r.getLong(1)});
      }
      OUTPUT.add(new long[] {id, -1, 0});
    };
    return counts.writeStream().outputMode("complete").option("checkpointLocation", checkpoint)
        .foreachBatch(sink).start();
  }

  private static List<Long> batches() {
    List<Long> ids = new ArrayList<>();
    synchronized (OUTPUT) {
      OUTPUT.stream().filter(r -> r[1] == -1).forEach(r -> ids.add(r[0]));
    }
    return ids;
  }

  private static Map<Integer, Long> lastCounts() {
    Map<Integer, Long> m = new TreeMap<>();
    synchronized (OUTPUT) {
      long last = OUTPUT.get(OUTPUT.size() - 1)[0];
      OUTPUT.stream().filter(r -> r[0] == last && r[1] >= 0).forEach(r -> m.put((int) r[1], r[2]));
    }
    return m;
  }
}
