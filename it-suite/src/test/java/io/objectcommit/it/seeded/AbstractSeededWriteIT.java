package io.objectcommit.it.seeded;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeded whole-job writes of one of our committers ({@link SeededWrite}): for every seed of {@link SeedSet}, the
 * output is exact (every row once, {@code _SUCCESS}, no stray object, no pending upload), and the driver JVM
 * holds no more threads, heap or open connections after a run than after the class's first run.
 */
@S3IntegrationTest
public abstract class AbstractSeededWriteIT {

  private static final Logger LOG = LoggerFactory.getLogger(AbstractSeededWriteIT.class);

  protected abstract CommitterContender contender();

  /** A short name for the report, for example {@code staging}. */
  protected abstract String component();

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.objectcommit.it.seeded.SeedSet#seeds")
  void wholeJobUnderSeededFaults(long seed, S3TestBucket bucket, @TempDir Path scratch) throws Exception {
    WriteOutcome o = SeededWrite.run(bucket, contender(), seed, scratch, Resources.first(getClass()));
    LOG.info("seeded run: {}", o);
    SeededReport.append(component(), seed, o.exact(), o.exact() ? "" : o.problems() + " " + o.jobFailures);
    assertTrue(o.exact(), "exact output under seeded faults: " + o);
    Resources.assertBounded(getClass(), o.resources, o.toString());
  }
}
