package io.objectcommit.staging;

import static io.objectcommit.testsupport.proxy.S3Operation.BULK_DELETE;
import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_ABORT;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_COMPLETE;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_INITIATE;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_LIST;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_PART;
import static io.objectcommit.testsupport.proxy.S3Operation.PUT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommitterStatistics;
import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.staging.files.PendingFile;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.staging.impl.JobAbortStage;
import io.objectcommit.staging.impl.JobCommitStage;
import io.objectcommit.staging.impl.TaskCommitStage;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small files carried in the task record ({@code fs.objectcommit.staging.inline.file-bytes} and
 * {@code .task-bytes}): one request per file, invisible until job commit, nothing left by a job abort or a losing
 * attempt.
 */
class InlineFilesTest {

  private static final String DEST = StagingJobFixture.DEST;
  private static final String JOB = "5d1c0a7e-1111-2222-3333-444455556666";

  @TempDir
  File tmp;

  private final StagingJobFixture job = new StagingJobFixture(JOB);
  private static byte[] bytes(int task, int n, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (task * 31 + n * 7 + i);
    }
    return b;
  }

  private TaskCommitStage.Result commitTask(int task, int count, int attempt, Map<String, byte[]> files)
      throws IOException {
    return job.commitTask(tmp, task, count, attempt, files);
  }

  /** {@code n} files of about 20 KB, the size of the benchmark's small files. */
  private Map<String, byte[]> small(int task, int n) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put(job.name(task, i), bytes(task, i, 20_000 + i));
    }
    return m;
  }

  private static Set<String> carried(StagingTaskRecord r) {
    return r.files.stream().filter(PendingFile::inline).map(f -> f.path).collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void smallFilesCostOneRequestEachAndStayInvisibleUntilJobCommit() throws IOException {
    for (int t = 0; t < 4; t++) {
      TaskCommitStage.Result r = commitTask(t, 4, 0, small(t, 5));
      assertTrue(r.won());
      assertEquals(5, carried(r.record()).size(), "five files of 20 KB fit the default 1 MiB");
      assertEquals(5L, r.record().statistics.get(CommitterStatistics.TASK_FILES_INLINE));
    }
    assertEquals(List.of(), job.visible(), "task commit makes nothing visible");
    assertEquals(0, job.store.pendingUploads("").size());

    JobCommitStage.Summary s = job.commitJob();
    for (int t = 0; t < 4; t++) {
      for (int i = 0; i < 5; i++) {
        assertArrayEquals(bytes(t, i, 20_000 + i), job.store.bytes(DEST + job.name(t, i)));
      }
    }
    assertEquals(20, job.visible().size());
    assertEquals(20, s.get(CommitterStatistics.FILES_COMMITTED));
    assertEquals(20, s.get(CommitterStatistics.JOB_FILES_INLINE));
    SuccessData success = SuccessData.CODEC.fromBytes(job.store.bytes(DEST + "_SUCCESS"), "_SUCCESS");
    assertEquals(20L, success.getMetrics().get(CommitterStatistics.JOB_FILES_INLINE));
    assertEquals(List.of(), job.store.keys(job.layout.recordsPrefix()), "records deleted");

    InMemoryRequestCounts c = job.store.counts();
    assertEquals(20 + 4 + 1, c.of(PUT), "one per file (job commit), one record per task, and _SUCCESS");
    assertEquals(4 + 4, c.of(GET), "per task: one read of its record, one of the job-abort marker (404)");
    assertEquals(0, c.of(MULTIPART_INITIATE) + c.of(MULTIPART_PART) + c.of(MULTIPART_COMPLETE), c.toString());
    assertEquals(1, c.of(BULK_DELETE), "records deleted in one request");
    assertEquals(1, c.of(MULTIPART_LIST), "one sweep per job");
    assertEquals(20 + 4 * 3 + 3, c.total(), "against 20 * 3 + 4 * 3 + 3 as pending uploads: " + c);
  }

  @Test
  void theRecordCarriesTheSmallestFilesWhileTheyFitItsBudget() throws IOException {
    job.conf.set(StagingConstants.INLINE_TASK_BYTES, "100");
    job.conf.set(StagingConstants.INLINE_FILE_BYTES, "65");
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("a.parquet", bytes(0, 0, 70));
    files.put("b.parquet", bytes(0, 1, 10));
    files.put("p=1/c.parquet", bytes(0, 2, 30));
    files.put("d.parquet", bytes(0, 3, 60));
    StagingTaskRecord r = commitTask(0, 1, 0, files).record();
    assertEquals(new TreeSet<>(List.of("b.parquet", "p=1/c.parquet", "d.parquet")), carried(r),
        "10 + 30 + 60 = 100 bytes fit; the 70-byte file is over 65 and uploaded");
    assertEquals(1, job.store.pendingUploads("").size());
    assertEquals(100, r.inlineBytes());
    job.commitJob();
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      assertArrayEquals(e.getValue(), job.store.bytes(DEST + e.getKey()), e.getKey());
    }
    assertEquals(0, job.store.pendingUploads("").size());
  }

  @Test
  void withTheDefaultsAFileOver128KiBIsAPendingUploadAndARecordCarriesAtMost1MiB() throws IOException {
    Map<String, byte[]> files = small(0, 3);
    files.put("big.parquet", bytes(0, 9, (int) StagingConstants.INLINE_FILE_BYTES_DEFAULT + 1));
    StagingTaskRecord r = commitTask(0, 2, 0, files).record();
    assertEquals(new TreeSet<>(List.of(job.name(0, 0), job.name(0, 1), job.name(0, 2))), carried(r));
    assertEquals(1, job.store.pendingUploads("").size());

    Map<String, byte[]> many = new LinkedHashMap<>();
    for (int i = 0; i < 12; i++) {
      many.put(job.name(1, i), bytes(1, i, 100_000));
    }
    StagingTaskRecord r1 = commitTask(1, 2, 0, many).record();
    assertEquals(10, carried(r1).size(), "ten files of 100,000 bytes fit 1 MiB, the eleventh does not");
    assertEquals(1_000_000, r1.inlineBytes());
    assertEquals(3, job.store.pendingUploads("").size());
    job.commitJob();
    assertArrayEquals(files.get("big.parquet"), job.store.bytes(DEST + "big.parquet"));
    for (Map.Entry<String, byte[]> e : many.entrySet()) {
      assertArrayEquals(e.getValue(), job.store.bytes(DEST + e.getKey()), e.getKey());
    }
    assertEquals(16, job.visible().size());
    assertEquals(0, job.store.pendingUploads("").size());
  }

  @Test
  void zeroTurnsItOff() throws IOException {
    job.conf.set(StagingConstants.INLINE_TASK_BYTES, "0");
    StagingTaskRecord r = commitTask(0, 1, 0, small(0, 2)).record();
    assertEquals(new TreeSet<>(), carried(r));
    assertEquals(2, job.store.pendingUploads("").size());
  }

  @Test
  void aLosingAttemptsCarriedFilesNeverAppear() throws IOException {
    commitTask(0, 1, 0, small(0, 2));
    Map<String, byte[]> other = Map.of("part-00000-" + JOB + "-speculative.parquet",
        "duplicate".getBytes(StandardCharsets.UTF_8));
    TaskCommitStage.Result second = commitTask(0, 1, 1, other);
    assertFalse(second.won());
    job.commitJob();
    assertEquals(List.of(DEST + job.name(0, 0), DEST + job.name(0, 1)), job.visible());
    assertEquals(0, job.store.counts().of(MULTIPART_ABORT), "nothing was uploaded, nothing to abort");
  }

  @Test
  void jobAbortLeavesNothingAndAfterAFailedJobCommitDeletesWhatItWrote() throws IOException {
    for (int t = 0; t < 2; t++) {
      commitTask(t, 2, 0, small(t, 2));
    }
    job.store.addFault(FaultRule.failing(PUT).matching("^" + Pattern.quote(DEST + job.name(1, 1)) + "$"));
    JobCommitStage stage = new JobCommitStage(job.store, job.layout, job.options(), Map.of(), null);
    assertThrows(IOException.class, stage::commit);
    assertTrue(stage.completionStarted());
    assertEquals(3, job.visible().size(), "the other files were written");
    job.store.clearFaults();
    new JobAbortStage(job.store, job.layout, job.options()).abort(stage.completionStarted(), 0);
    assertEquals(List.of(), job.visible(), "abort deletes the written files");
    assertEquals(List.of(job.layout.jobAbortedKey()), job.store.keys(DEST), "records deleted; the abort marker stays");
    assertEquals(0, job.store.counts().of(MULTIPART_ABORT), "nothing was uploaded, nothing to abort");
  }

  @Test
  void jobAbortBeforeJobCommitLeavesNoFile() throws IOException {
    commitTask(0, 1, 0, small(0, 3));
    new JobAbortStage(job.store, job.layout, job.options()).abort(false, 0);
    assertEquals(List.of(), job.visible());
    assertEquals(List.of(job.layout.jobAbortedKey()), job.store.keys(DEST));
  }
}
