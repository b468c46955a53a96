package io.objectcommit.it.seeded;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.it.faults.StockCommitters;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stock committers under the same seeded writes as ours ({@link SeededWrite}): FileOutputCommitter v1 and
 * v2, and the S3A directory and magic committers through spark-hadoop-cloud. Nothing is asserted about their
 * output: what they lost, duplicated or left is recorded in {@code target/seeded-runs/results.tsv} and the log.
 * Runs only with {@code -Dobjectcommit.seeds.stock=true} ({@code bin/run-fault-seeds --component stock}).
 */
@S3IntegrationTest
class SeededStockCommittersIT {

  private static final Logger LOG = LoggerFactory.getLogger(SeededStockCommittersIT.class);

  static List<CommitterContender> contenders() {
    return List.of(StockCommitters.fileOutputCommitterV1(), StockCommitters.fileOutputCommitterV2(),
        StockCommitters.s3aDirectory(), StockCommitters.s3aMagic());
  }

  static Stream<Arguments> runs() {
    return contenders().stream().flatMap(c -> SeedSet.seeds().stream().map(s -> Arguments.of(c, s)));
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("runs")
  void recordWholeJobUnderSeededFaults(CommitterContender contender, long seed, S3TestBucket bucket,
      @TempDir Path scratch) throws Exception {
    assumeTrue(SeedSet.stock(), "stock contenders run with -D" + SeedSet.STOCK_PROPERTY + "=true");
    WriteOutcome o = SeededWrite.run(bucket, contender, seed, scratch, null);
    LOG.info("seeded run (stock, recorded): {}", o);
    SeededReport.append(contender.name(), seed, o.exact(), o.exact() ? "" : o.problems() + " " + o.jobFailures);
  }
}
