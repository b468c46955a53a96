package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.fs.files.CorruptRecordException;
import io.objectcommit.staging.files.PendingFile;
import io.objectcommit.staging.files.TaskRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskRecordTest {

  private static TaskRecord record(String path) {
    return new TaskRecord("job", 2, 4, "attempt_2", "host", List.of(new PendingFile(path, "up-1", 10,
        List.of("e1", "e2"))));
  }

  @Test
  void roundTrip() throws IOException {
    TaskRecord r = record("p=1/part-0.parquet");
    r.getStatistics().put("task_files", 1L);
    byte[] json = TaskRecord.CODEC.toBytes(r);
    String text = new String(json, StandardCharsets.UTF_8);
    assertTrue(text.contains("\"type\" : \"objectcommit-staging-task\"") && text.contains("\"version\" : 1"), text);
    TaskRecord back = TaskRecord.CODEC.fromBytes(json, "mem");
    assertEquals(2, back.getTaskIndex());
    assertEquals(4, back.getTaskCount());
    assertEquals("p=1", back.getFiles().get(0).partition());
    assertEquals(List.of("e1", "e2"), back.getFiles().get(0).getEtags());
    assertEquals(1L, back.getStatistics().get("task_files"));
  }

  @Test
  void badRecordsAreRefused() {
    for (String bad : new String[] {"/abs.parquet", "a/../b.parquet", "a//b", "dir/"}) {
      assertThrows(IllegalStateException.class, () -> TaskRecord.CODEC.toBytes(record(bad)), bad);
    }
    String tooFar = "{\"type\":\"objectcommit-staging-task\",\"version\":1,\"jobId\":\"j\",\"taskIndex\":5,"
        + "\"taskCount\":4,\"taskAttemptId\":\"a\",\"files\":[],\"statistics\":{}}";
    CorruptRecordException e = assertThrows(CorruptRecordException.class,
        () -> TaskRecord.CODEC.fromBytes(tooFar.getBytes(StandardCharsets.UTF_8), "s3://b/k"));
    assertTrue(e.getMessage().contains("outside the task count"), e.getMessage());
    String newer = tooFar.replace("\"version\":1", "\"version\":2");
    assertThrows(CorruptRecordException.class,
        () -> TaskRecord.CODEC.fromBytes(newer.getBytes(StandardCharsets.UTF_8), "s3://b/k"));
  }
}
