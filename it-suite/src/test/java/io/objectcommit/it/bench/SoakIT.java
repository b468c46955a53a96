package io.objectcommit.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.bench.SoakResult;
import io.objectcommit.bench.SoakRun;
import io.objectcommit.bench.SoakSettings;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CI-sized soak (docs/reliability.md, "Soak run"; the long run is {@code bin/soak}): 320 micro-batches of a
 * stateful query on {@code ckpt://} through the fault proxy with 20 ms per request, the default state store,
 * maintenance every 2 s. Micro-batches 120-219 against 220-319: the warm-up of 120 covers the 100 batches Spark
 * keeps before it purges anything and the first snapshots old enough for the state store to delete deltas; writes
 * and all requests per micro-batch within 10% (maintenance's GETs, snapshots and deletions follow the shared machine's
 * speed: the long run, {@code bin/soak}, holds them to 5%), the largest manifest and the object count within
 * 10%, heap after full GC within 10% (or 32 MiB), the final counts exact. Seconds per micro-batch are reported, not
 * asserted (2 shared cores). Tagged {@code soak}: Spark 3.5's {@code mvn verify} runs it beside the other ITs,
 * whose classes each leave Spark's JVM-wide state store registry empty ({@code StateStoresReset}), so that this
 * query's maintenance is the only one in the JVM; {@code -Dit.test=SoakIT} runs it alone.
 */
@S3IntegrationTest
@Tag(TestTags.SOAK)
class SoakIT {

  @Test
  void threeHundredTwentyMicroBatchesAtFlatCost(S3TestBucket bucket) throws Exception {
    SoakSettings settings = new SoakSettings(320, List.of("default"), 120, 100, 20, 2, 4, 10, "local[2]");
    SoakResult r = new SoakRun(bucket.endpoint(), settings).run("default");
    String table = r.table(SoakResult.SHARED_MACHINE_REQUEST_TOLERANCE);
    System.out.println(table);

    assertEquals(319, r.lastBatchId(), table);
    assertEquals(r.expectedCounts(), r.counts(), "final counts\n" + table);
    assertTrue(r.requestsPerBatch(false, "DELETE") + r.requestsPerBatch(false, "BULK_DELETE") > 0,
        "Spark purges old files in the last window\n" + table);
    for (SoakResult.Check k : r.checks(SoakResult.SHARED_MACHINE_REQUEST_TOLERANCE)) {
      if (k.asserted()) {
        assertTrue(k.met(), k.name() + ": " + k.first() + " -> " + k.last() + ", limit " + k.limit() + "\n" + table);
      }
    }
  }
}
