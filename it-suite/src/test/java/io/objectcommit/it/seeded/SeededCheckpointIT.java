package io.objectcommit.it.seeded;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code ckpt://} checkpoint (S3 manifest backend, our checkpoint manager) under seeded faults: for every seed
 * of {@link SeedSet} the stateful query ends with exact counts, {@code verify} finds nothing wrong, no upload is
 * left pending and no connection open.
 */
@S3IntegrationTest
class SeededCheckpointIT {

  private static final Logger LOG = LoggerFactory.getLogger(SeededCheckpointIT.class);

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.objectcommit.it.seeded.SeedSet#seeds")
  void statefulQueryUnderSeededFaults(long seed, S3TestBucket bucket, @TempDir Path scratch) throws Exception {
    CheckpointOutcome o = SeededStream.run(bucket, ObjectCommitCheckpoints.s3(), seed, scratch,
        Resources.first(getClass()));
    LOG.info("seeded run: {}", o);
    SeededReport.append("checkpoint", seed, o.exact(), o.exact() ? "" : o.problems() + " " + o.queryFailures);
    assertTrue(o.exact(), "exact state under seeded faults: " + o);
    Resources.assertBounded(getClass(), o.resources, o.toString());
  }
}
