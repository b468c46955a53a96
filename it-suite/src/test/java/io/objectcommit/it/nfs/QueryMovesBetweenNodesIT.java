package io.objectcommit.it.nfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.NfsClientOptions;
import io.objectcommit.testsupport.NfsLikeMount;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.TestTags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stateful query (count by key, complete mode) whose driver moves between two nodes of an EFS-like file system
 * at every restart: runs alternate between node X and node Y (separate NFS-like mounts, Linux default caching,
 * which EFS's recommended options keep), one new input file each run. The state a run leaves on one node is
 * loaded by the next run on the other, and a node is revisited while its NFS client still holds the caches of its
 * previous run. With Spark's default state store and with RocksDB, through the {@code ckpt://} local-path backend:
 * after every run the state is exact and no micro-batch ran twice.
 */
@Tag(TestTags.NFS)
class QueryMovesBetweenNodesIT {

  private static final Logger LOG = LoggerFactory.getLogger(QueryMovesBetweenNodesIT.class);
  private static final int RUNS = 5;
  private static final String ROCKSDB =
      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  @ParameterizedTest(name = "{0} state store")
  @ValueSource(strings = {"hdfs", "rocksdb"})
  void driverMovesBetweenNodesWithExactCounts(String stateStore, @TempDir Path input) throws Exception {
    NfsLikeMount.assumeAvailable();
    Path dir = Files.createDirectories(S3Endpoints.workDir().resolve("nfs-query-moves"));
    try (NfsNodes n = NfsNodes.mount(dir, NfsClientOptions.linuxDefaults(), "x", "y")) {
      Map<String, String> conf = new HashMap<>();
      conf.put(NfsNodes.MANAGER_KEY, NfsNodes.OUR_MANAGER);
      if ("rocksdb".equals(stateStore)) {
        conf.put("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
      }
      StreamInput in = new StreamInput(input);
      List<Long> allBatches = new ArrayList<>();
      try (SparkSession spark = SparkSessions.local("nfs-query-moves", "local[2]", n.hadoopSettings(null), conf)) {
        for (int run = 0; run < RUNS; run++) {
          int node = run % 2;
          CountingQuery.clear();
          StreamingQuery q = CountingQuery.start(spark, input, n.ours(node, "q/checkpoint"));
          try {
            in.addFile(run);
            q.processAllAvailable();
          } finally {
            q.stop();
          }
          assertTrue(q.exception().isEmpty(), "run " + run + " on node " + node + ": " + q.exception());
          List<Long> batches = CountingQuery.batches();
          assertEquals(List.of((long) run), batches, "run " + run + " processes exactly its one new batch");
          assertTrue(allBatches.stream().noneMatch(batches::contains), "no batch twice: " + allBatches + batches);
          allBatches.addAll(batches);
          assertEquals(StreamInput.expectedCounts(run + 1), CountingQuery.lastCounts(), "exact state after run "
              + run + " on node " + node);
        }
      }
      LOG.info("NFS query moving between nodes ({} state store, {}): batches {}, exact; round trips x={}, y={}",
          stateStore, n.mount(0).options(), allBatches, n.mount(0).roundTrips(), n.mount(1).roundTrips());
    }
  }
}
