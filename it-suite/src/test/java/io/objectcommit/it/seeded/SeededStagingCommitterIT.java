package io.objectcommit.it.seeded;

import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.it.faults.StagingCommitters;

/** The staging committer (Parquet binding, Spark's default commit protocol) under seeded faults. */
class SeededStagingCommitterIT extends AbstractSeededWriteIT {

  @Override
  protected CommitterContender contender() {
    return StagingCommitters.parquetBinding();
  }

  @Override
  protected String component() {
    return "staging";
  }
}
