package io.objectcommit.it.faults;

import io.objectcommit.testsupport.TestTags;
import org.junit.jupiter.api.Tag;
/**
 * {@link CkptStreamingRestartIT} with Spark's default (FileContext-based) checkpoint manager on {@code ckpt://}:
 * registering the file system is enough for exact recovery.
 */
@Tag(TestTags.COMPONENT)
class CkptDefaultManagerStreamingRestartIT extends CkptStreamingRestartIT {

  @Override
  protected CheckpointContender contender() {
    return ObjectCommitCheckpoints.s3WithSparkDefaultManager();
  }
}
