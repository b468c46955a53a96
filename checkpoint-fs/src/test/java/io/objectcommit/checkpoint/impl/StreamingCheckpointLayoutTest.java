package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The layout check on file names as Spark writes them: the state checkpoint format v2 (Spark 4, RocksDB:
 * {@code <version>_<unique id>.changelog} and {@code .zip}) is recognised as a state store, and a version missing
 * between the next one and the newest snapshot is named as a pattern, which is not looked up.
 */
class StreamingCheckpointLayoutTest {

  private static List<String> batches(int last) {
    List<String> files = new ArrayList<>(List.of("metadata"));
    for (int b = 0; b <= last; b++) {
      files.add("offsets/" + b);
      files.add("commits/" + b);
    }
    return files;
  }

  @Test
  void recognisesStateFormatV2AndNamesAMissingVersionAsAPattern() {
    List<String> files = batches(3);
    for (int p = 0; p < 2; p++) {
      files.add("state/0/" + p + "/2_5b0e4c1e-9f3a-4d61-8a0c-6f1f2a3b4c5d.zip");
      files.add("state/0/" + p + "/SSTs/000008-0c8c2a9e.sst");
      files.add("state/0/" + p + "/3_0e6d1a2b-7c3f-4e5a-9b8c-1d2e3f4a5b6c.changelog");
      if (p == 0) {
        files.add("state/0/" + p + "/4_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.changelog");
      }
    }
    StreamingCheckpointLayout.Findings f = StreamingCheckpointLayout.check(files);
    assertEquals(2, f.stateStores);
    assertEquals(Map.of("state/0/1/4_*.changelog", "state version 4: version 4, which the next batch loads, is"
        + " rebuilt from the changelogs down to a snapshot or to version 1"), f.missing);
    assertFalse(StreamingCheckpointLayout.isLookup("state/0/1/4_*.changelog"));
    assertTrue(StreamingCheckpointLayout.isLookup("state/0/1/4.changelog"));
    assertFalse(StreamingCheckpointLayout.isLookup("commits/"));
  }

  @Test
  void theFormatV1StillNamesTheFileToLookUp() {
    List<String> files = batches(1);
    files.add("state/0/0/1.delta");
    StreamingCheckpointLayout.Findings f = StreamingCheckpointLayout.check(files);
    assertEquals(1, f.stateStores);
    assertEquals(List.of("state/0/0/2.delta"), List.copyOf(f.missing.keySet()));
  }
}
