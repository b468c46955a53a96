package io.objectcommit.it.seeded;

import io.objectcommit.it.direct.DirectCommitters;
import io.objectcommit.it.faults.CommitterContender;

/** The direct committer (Parquet binding, Spark's default commit protocol) under seeded faults. */
class SeededDirectCommitterIT extends AbstractSeededWriteIT {

  @Override
  protected CommitterContender contender() {
    return DirectCommitters.parquet();
  }

  @Override
  protected String component() {
    return "direct";
  }
}
