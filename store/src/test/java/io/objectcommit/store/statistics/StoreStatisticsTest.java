package io.objectcommit.store.statistics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.statistics.IOStatisticsSnapshot;
import org.junit.jupiter.api.Test;

class StoreStatisticsTest {

  @Test
  void countsFailuresRetriesBytesAndDurations() {
    StoreStatistics s = new StoreStatistics();
    s.recordRequest(StoreStatisticNames.OP_PUT, 30, true);
    s.recordRetry(StoreStatisticNames.OP_PUT);
    s.recordRequest(StoreStatisticNames.OP_PUT, 10, false);
    s.recordBytes(StoreStatisticNames.OP_PUT, 1234);
    StoreStatistics.Snapshot.OpValues v = s.snapshot().get(StoreStatisticNames.OP_PUT);
    assertEquals(2, v.count);
    assertEquals(1, v.failures);
    assertEquals(1, v.retries);
    assertEquals(1234, v.bytes);
    assertEquals(40, v.durationMs);
    assertEquals(30, v.maxMs);
    assertEquals("op_put=2 (1 retries)", s.snapshot().toString());
    assertEquals("no requests", new StoreStatistics().snapshot().toString());
  }

  @Test
  void snapshotsSubtractToTheRequestsOfOnePieceOfWork() {
    StoreStatistics s = new StoreStatistics();
    s.recordRequest(StoreStatisticNames.OP_GET, 1, false);
    StoreStatistics.Snapshot before = s.snapshot();
    s.recordRequest(StoreStatisticNames.OP_GET, 1, false);
    s.recordRequest(StoreStatisticNames.OP_LIST, 1, false);
    StoreStatistics.Snapshot used = s.snapshot().minus(before);
    assertEquals(1, used.count(StoreStatisticNames.OP_GET));
    assertEquals(1, used.count(StoreStatisticNames.OP_LIST));
    assertEquals(2, used.totalRequests());
  }

  @Test
  void isThreadSafe() throws Exception {
    StoreStatistics s = new StoreStatistics();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    for (int t = 0; t < 8; t++) {
      pool.submit(() -> {
        for (int i = 0; i < 10_000; i++) {
          s.recordRequest(StoreStatisticNames.OP_HEAD, 1, false);
        }
      });
    }
    pool.shutdown();
    assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    assertEquals(80_000, s.snapshot().count(StoreStatisticNames.OP_HEAD));
  }

  @Test
  void becomesAHadoopIoStatisticsSnapshotThatSerialisesToJson() throws Exception {
    StoreStatistics s = new StoreStatistics();
    s.recordRequest(StoreStatisticNames.OP_MULTIPART_COMPLETE, 25, false);
    IOStatisticsSnapshot snap = (IOStatisticsSnapshot) s.toIOStatistics();
    String json = IOStatisticsSnapshot.serializer().toJson(snap);
    assertTrue(json.contains("\"op_multipart_complete\" : 1"), json);
    assertTrue(json.contains("\"op_multipart_complete.max\" : 25"), json);
    IOStatisticsSnapshot back = IOStatisticsSnapshot.serializer().fromJson(json);
    assertEquals(1L, back.counters().get("op_multipart_complete"));
  }
}
