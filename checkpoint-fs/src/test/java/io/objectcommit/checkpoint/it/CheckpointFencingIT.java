package io.objectcommit.checkpoint.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.checkpoint.CheckpointFencedException;
import io.objectcommit.checkpoint.CheckpointFencing;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Two drivers on one checkpoint, each a FileSystem of its own Configuration (no cache shared; a fence scope of its
 * own, as two processes):
 * the first writes, the second takes over, and the first's next state file and offset file are refused with
 * {@link CheckpointFencedException} and are not listed, while the second's writes succeed.
 */
@S3IntegrationTest
class CheckpointFencingIT {

  /** Larger than the inline limit (8 KiB): a state file with a data object of its own. */
  private static final String LARGE = "s".repeat(10_000);

  @Test
  void aZombieDriversWritesFailAfterATakeoverAndAreNotListed(S3TestBucket bucket) throws Exception {
    Path q = CkptTestSupport.path(bucket, bucket.prefix() + "q");
    try (FileSystem first = CkptTestSupport.fs(process(bucket, "first"), bucket);
        FileSystem second = CkptTestSupport.fs(process(bucket, "second"), bucket)) {
      assertEquals(1, CheckpointFencing.takeOwnership(first, q, "app-1/run-1"));
      CkptTestSupport.write(first, new Path(q, "offsets/0"), "v1 offsets 0", false);
      CkptTestSupport.write(first, new Path(q, "state/0/0/1.delta"), LARGE, false);
      CkptTestSupport.write(first, new Path(q, "commits/0"), "v1 commit 0", false);

      assertEquals(2, CheckpointFencing.takeOwnership(second, q, "app-2/run-2"));

      CheckpointFencedException state = assertThrows(CheckpointFencedException.class,
          () -> CkptTestSupport.write(first, new Path(q, "state/0/0/2.delta"), LARGE, false));
      CheckpointFencedException offsets = assertThrows(CheckpointFencedException.class,
          () -> CkptTestSupport.write(first, new Path(q, "offsets/1"), "v1 offsets 1 (zombie)", false));
      for (CheckpointFencedException e : List.of(state, offsets)) {
        assertEquals("/" + bucket.prefix() + "q", e.location(), e.getMessage());
        assertEquals("app-2/run-2", e.newerOwnerId(), e.getMessage());
        assertEquals(1, e.epoch());
        assertEquals(2, e.newerEpoch());
        assertTrue(e.getMessage().contains("app-2/run-2"), e.getMessage());
      }
      assertTrue(state.operation().endsWith("q/state/0/0/2.delta"), state.operation());
      assertEquals(List.of(), bucket.listKeys(bucket.prefix() + "q/state/0/0/2.delta"),
          "the zombie's data object is deleted");

      try (FileSystem reader = CkptTestSupport.fs(CkptTestSupport.conf(bucket.endpoint(), bucket), bucket)) {
        assertEquals(List.of("0"), names(reader, new Path(q, "offsets")));
        assertEquals(List.of("1.delta"), names(reader, new Path(q, "state/0/0")));
      }

      CkptTestSupport.write(second, new Path(q, "offsets/1"), "v2 offsets 1", false);
      CkptTestSupport.write(second, new Path(q, "state/0/0/2.delta"), LARGE + "2", false);
      try (FileSystem reader = CkptTestSupport.fs(CkptTestSupport.conf(bucket.endpoint(), bucket), bucket)) {
        assertEquals(List.of("0", "1"), names(reader, new Path(q, "offsets")));
        assertEquals("v2 offsets 1", CkptTestSupport.read(reader, new Path(q, "offsets/1")));
        assertEquals(LARGE + "2", CkptTestSupport.read(reader, new Path(q, "state/0/0/2.delta")));
        assertFalse(reader.exists(new Path(q, "commits/1")));
      }
    }
  }

  /** The settings of one process: epochs are held JVM-wide, so each plays its own with a fence scope of its own. */
  private static Configuration process(S3TestBucket bucket, String name) {
    Configuration conf = CkptTestSupport.conf(bucket.endpoint(), bucket);
    conf.set(CheckpointConstants.TEST_FENCE_SCOPE, bucket.name() + "/" + name);
    return conf;
  }

  private static List<String> names(FileSystem fs, Path dir) throws Exception {
    List<String> out = new ArrayList<>();
    for (FileStatus st : fs.listStatus(dir)) {
      out.add(st.getPath().getName());
    }
    out.sort(null);
    return out;
  }
}
