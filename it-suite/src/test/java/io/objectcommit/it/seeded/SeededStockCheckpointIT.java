package io.objectcommit.it.seeded;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.it.faults.StockCheckpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stock checkpointing (s3a:// with Spark's default checkpoint manager) under the same seeded streaming runs as
 * {@code ckpt://} ({@link SeededStream}); recorded, not asserted. Runs only with
 * {@code -Dobjectcommit.seeds.stock=true}.
 */
@S3IntegrationTest
class SeededStockCheckpointIT {

  private static final Logger LOG = LoggerFactory.getLogger(SeededStockCheckpointIT.class);

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.objectcommit.it.seeded.SeedSet#seeds")
  void recordStatefulQueryUnderSeededFaults(long seed, S3TestBucket bucket, @TempDir Path scratch)
      throws Exception {
    assumeTrue(SeedSet.stock(), "stock contenders run with -D" + SeedSet.STOCK_PROPERTY + "=true");
    CheckpointOutcome o = SeededStream.run(bucket, StockCheckpoints.s3aDefault(), seed, scratch, null);
    LOG.info("seeded run (stock, recorded): {}", o);
    SeededReport.append(o.contender, seed, o.exact(), o.exact() ? "" : o.problems() + " " + o.queryFailures);
  }
}
