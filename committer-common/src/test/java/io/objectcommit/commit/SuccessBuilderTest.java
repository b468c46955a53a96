package io.objectcommit.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.store.PagedStore;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SuccessBuilderTest {

  @Test
  void theMarkerHasTheS3aFieldsAndOurMetrics() throws IOException {
    PagedStore s = new PagedStore(10);
    new SuccessBuilder("objectcommit-test", JobId.of("job-1", CommitConstants.JOB_UUID))
        .description("2 files")
        .committed(2, 30)
        .metric(CommitterStatistics.JOB_TASKS, 1)
        .diagnostic("destination", "s3://b/t/")
        .filename("t/a")
        .filename("/t/b")
        .taskCounters(Map.of("op_put", 2L))
        .taskCounters(Map.of("op_put", 1L))
        .hostname("host")
        .timestamp(1000)
        .write(s.store(), "t/_SUCCESS");
    SuccessData d = SuccessData.CODEC.fromBytes(s.objects.get("t/_SUCCESS"), "t/_SUCCESS");
    assertEquals(SuccessData.S3A_NAME, d.getName());
    assertEquals(SuccessData.TYPE, d.getType());
    assertEquals("objectcommit-test", d.getCommitter());
    assertEquals("job-1", d.getJobId());
    assertEquals(CommitConstants.JOB_UUID, d.getJobIdSource());
    assertEquals("host", d.getHostname());
    assertEquals(1000, d.getTimestamp());
    assertEquals(2L, d.getMetrics().get(CommitterStatistics.FILES_COMMITTED));
    assertEquals(30L, d.getMetrics().get(CommitterStatistics.BYTES_COMMITTED));
    assertEquals(1L, d.getMetrics().get(CommitterStatistics.JOB_TASKS));
    assertEquals(List.of("/t/a", "/t/b"), d.getFilenames());
    assertEquals("s3://b/t/", d.getDiagnostics().get("destination"));
    assertEquals(3L, d.getIostatistics().counters.get(CommitterStatistics.TASK_PREFIX + "op_put"));
  }

  @Test
  void anEmptyJobStillReportsZeroFiles() throws IOException {
    SuccessData d = new SuccessBuilder("c", JobId.of("j", "test")).build(null);
    assertEquals(0L, d.getMetrics().get(CommitterStatistics.FILES_COMMITTED));
    assertEquals(0L, d.getMetrics().get(CommitterStatistics.BYTES_COMMITTED));
  }

  @Test
  void theHostnameIsNeverEmpty() {
    assertEquals(false, Hostnames.local().isEmpty());
  }
}
