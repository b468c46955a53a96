package io.objectcommit.it.faults;

/**
 * {@link CkptStreamingRestartIT} with Spark's default (FileContext-based) checkpoint manager on {@code ckpt://}:
 * registering the file system is enough for exact recovery.
 */
class CkptDefaultManagerStreamingRestartIT extends CkptStreamingRestartIT {

  @Override
  protected CheckpointContender contender() {
    return ObjectCommitCheckpoints.s3WithSparkDefaultManager();
  }
}
