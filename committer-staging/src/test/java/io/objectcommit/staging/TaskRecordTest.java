package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.staging.files.PendingFile;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.store.files.CorruptRecordException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskRecordTest {

  private static StagingTaskRecord record(String path) {
    return new StagingTaskRecord("job", 2, 4, "attempt_2", "host", List.of(new PendingFile(path, "up-1", 10,
        List.of("e1", "e2"))));
  }

  @Test
  void roundTrip() throws IOException {
    StagingTaskRecord r = record("p=1/part-0.parquet");
    r.statistics.put("task_files", 1L);
    byte[] json = StagingTaskRecord.CODEC.toBytes(r);
    String text = new String(json, StandardCharsets.UTF_8);
    assertTrue(text.contains("\"type\" : \"" + StagingTaskRecord.TYPE + "\"") && text.contains("\"version\" : 2"),
        text);
    StagingTaskRecord back = StagingTaskRecord.CODEC.fromBytes(json, "mem");
    assertEquals(2, back.taskIndex);
    assertEquals(4, back.taskCount);
    assertEquals("p=1", back.files.get(0).partition());
    assertEquals(List.of("e1", "e2"), back.files.get(0).etags);
    assertEquals(1L, back.statistics.get("task_files"));
  }

  @Test
  void badRecordsAreRefused() {
    for (String bad : new String[] {"/abs.parquet", "a/../b.parquet", "a//b", "dir/"}) {
      assertThrows(IllegalStateException.class, () -> StagingTaskRecord.CODEC.toBytes(record(bad)), bad);
    }
    String tooFar = "{\"type\":\"" + StagingTaskRecord.TYPE + "\",\"version\":1,\"jobId\":\"j\",\"taskIndex\":5,"
        + "\"taskCount\":4,\"taskAttemptId\":\"a\",\"files\":[],\"statistics\":{}}";
    CorruptRecordException e = assertThrows(CorruptRecordException.class,
        () -> StagingTaskRecord.CODEC.fromBytes(tooFar.getBytes(StandardCharsets.UTF_8), "s3://b/k"));
    assertTrue(e.getMessage().contains("outside the task count"), e.getMessage());
    String newer = tooFar.replace("\"version\":1", "\"version\":3");
    assertThrows(CorruptRecordException.class,
        () -> StagingTaskRecord.CODEC.fromBytes(newer.getBytes(StandardCharsets.UTF_8), "s3://b/k"));
  }

  @Test
  void aVersionOneRecordIsStillRead() throws IOException {
    String v1 = "{\"type\":\"" + StagingTaskRecord.TYPE + "\",\"version\":1,\"jobId\":\"j\",\"taskIndex\":0,"
        + "\"taskCount\":1,\"taskAttemptId\":\"a\",\"files\":[{\"path\":\"part-0.parquet\",\"uploadId\":\"u\","
        + "\"length\":3,\"etags\":[\"e\"]}],\"statistics\":{}}";
    StagingTaskRecord r = StagingTaskRecord.CODEC.fromBytes(v1.getBytes(StandardCharsets.UTF_8), "s3://b/k");
    assertFalse(r.files.get(0).inline());
    assertEquals("u", r.files.get(0).uploadId);
    assertEquals(0, r.inlineBytes());
  }

  @Test
  void aCarriedFileRoundTripsAsBase64AndIsCheckedOnLoad() throws IOException {
    byte[] data = {0, 1, 2, (byte) 0xff, 'x'};
    StagingTaskRecord r = new StagingTaskRecord("job", 0, 1, "attempt_0", "host",
        List.of(PendingFile.inline("p=1/part-0.parquet", data), new PendingFile("big.parquet", "up-1", 10,
            List.of("e1"))));
    byte[] json = StagingTaskRecord.CODEC.toBytes(r);
    String text = new String(json, StandardCharsets.UTF_8);
    assertTrue(text.contains("\"data\" : \"AAEC/3g=\""), text);
    assertEquals(1, text.split("\"data\"", -1).length - 1, "no data field for an uploaded file: " + text);
    StagingTaskRecord back = StagingTaskRecord.CODEC.fromBytes(json, "mem");
    assertArrayEquals(data, back.files.get(0).data);
    assertEquals(5, back.inlineBytes());
    assertEquals(15, back.bytes());
    assertFalse(back.files.get(1).inline());

    String wrongLength = text.replace("\"length\" : 5", "\"length\" : 6");
    CorruptRecordException e = assertThrows(CorruptRecordException.class,
        () -> StagingTaskRecord.CODEC.fromBytes(wrongLength.getBytes(StandardCharsets.UTF_8), "s3://b/k"));
    assertTrue(e.getMessage().contains("says 6 bytes and carries 5"), e.getMessage());
    PendingFile both = PendingFile.inline("both.parquet", data);
    both.uploadId = "up-2";
    assertThrows(IllegalStateException.class, () -> StagingTaskRecord.CODEC.toBytes(new StagingTaskRecord("job", 0,
        1, "attempt_0", "host", List.of(both))));
  }
}
