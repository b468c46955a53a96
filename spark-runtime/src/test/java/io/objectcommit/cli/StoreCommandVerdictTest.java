package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.direct.DirectCommitterConstants;
import io.objectcommit.staging.StagingConstants;
import io.objectcommit.store.guarantee.GuaranteeCheck;
import io.objectcommit.store.guarantee.GuaranteeReport;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.testsupport.TestTags;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What each component makes of a store, from a report where the races were not checked after a failure. */
@Tag(TestTags.COMMAND)
class StoreCommandVerdictTest {

  @Test
  void refusedNotKnownOrUsableAsEachComponentNeeds() {
    // as S3Mock 5.2.0 with the check stopping at its first failure: ABORT_KEEPS_EXISTING fails, no race is run
    EnumSet<StoreGuarantee> sequential = EnumSet.complementOf(EnumSet.of(StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE,
        StoreGuarantee.ATOMIC_COMPARE_AND_SWAP));
    GuaranteeReport r = new GuaranteeReport("s3://b/p/check-1/", GuaranteeCheck.order(EnumSet.allOf(
        StoreGuarantee.class)), sequential, Map.of(StoreGuarantee.ABORT_KEEPS_EXISTING, "deleted"), Map.of(), null,
        35, 100);
    assertEquals("not known: ATOMIC_EXCLUSIVE_CREATE, ATOMIC_COMPARE_AND_SWAP not checked (--all checks them)",
        StoreCommand.verdict(r, CheckpointConstants.STORE_GUARANTEES));
    assertEquals("refused: ABORT_KEEPS_EXISTING fails", StoreCommand.verdict(r,
        DirectCommitterConstants.STORE_GUARANTEES));
    assertEquals("refused: ABORT_KEEPS_EXISTING fails", StoreCommand.verdict(r, StagingConstants.STORE_GUARANTEES));
    assertEquals("can use this store", StoreCommand.verdict(r, EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT)));
  }
}
