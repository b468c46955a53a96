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
import io.objectcommit.commit.JobId;
import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.staging.files.PendingFile;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.staging.impl.JobAbortStage;
import io.objectcommit.staging.impl.JobCommitStage;
import io.objectcommit.staging.impl.JobLayout;
import io.objectcommit.staging.impl.SuccessMarker;
import io.objectcommit.staging.impl.TaskCommitStage;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small files carried in the task record ({@code fs.objectcommit.staging.inline.file-bytes} and
 * {@code .task-bytes}): one request per file, invisible until job commit, nothing left by a job abort or a losing
 * attempt.
 */
class InlineFilesTest {

  private static final String DEST = "warehouse/table/";
  private static final String JOB = "5d1c0a7e-1111-2222-3333-444455556666";

  @TempDir
  File tmp;

  private final InMemoryObjectStore store = InMemoryObjectStore.create("bucket");
  private final JobLayout layout = new JobLayout("bucket", "warehouse/table", JOB);
  private final Configuration conf = new Configuration(false);

  private StagingOptions options() {
    return StagingOptions.from(conf, "bucket", null);
  }

  private static String name(int task, int n) {
    return "part-0000" + task + "-" + JOB + "-c00" + n + ".parquet";
  }

  private static byte[] bytes(int task, int n, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (task * 31 + n * 7 + i);
    }
    return b;
  }

  private TaskCommitStage.Result commitTask(int task, int count, int attempt, Map<String, byte[]> files)
      throws IOException {
    File dir = new File(tmp, "attempt_" + task + "_" + attempt);
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      File f = new File(dir, e.getKey());
      f.getParentFile().mkdirs();
      Files.write(f.toPath(), e.getValue());
    }
    return new TaskCommitStage(store, layout, options()).commit(dir, task, count, "attempt_" + task + "_" + attempt,
        "host");
  }

  /** {@code n} files of about 20 KB, the size of the benchmark's small files. */
  private static Map<String, byte[]> small(int task, int n) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put(name(task, i), bytes(task, i, 20_000 + i));
    }
    return m;
  }

  private JobCommitStage.Summary commitJob() throws IOException {
    return new JobCommitStage(store, layout, options(), 0,
        new SuccessMarker("test", JobId.of(JOB, "test"), Map.of())).commit();
  }

  private List<String> visible() {
    List<String> keys = store.keys(DEST);
    keys.removeIf(k -> k.startsWith(DEST + ".objectcommit-staging/") || k.equals(DEST + "_SUCCESS"));
    return keys;
  }

  private static TreeSet<String> carried(StagingTaskRecord r) {
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
    assertEquals(List.of(), visible(), "task commit makes nothing visible");
    assertEquals(0, store.pendingUploads("").size());

    JobCommitStage.Summary s = commitJob();
    for (int t = 0; t < 4; t++) {
      for (int i = 0; i < 5; i++) {
        assertArrayEquals(bytes(t, i, 20_000 + i), store.bytes(DEST + name(t, i)));
      }
    }
    assertEquals(20, visible().size());
    assertEquals(20, s.get(CommitterStatistics.FILES_COMMITTED));
    assertEquals(20, s.get(CommitterStatistics.JOB_FILES_INLINE));
    SuccessData success = SuccessData.CODEC.fromBytes(store.bytes(DEST + "_SUCCESS"), "_SUCCESS");
    assertEquals(20L, success.getMetrics().get(CommitterStatistics.JOB_FILES_INLINE));
    assertEquals(List.of(), store.keys(layout.recordsPrefix()), "records deleted");

    InMemoryRequestCounts c = store.counts();
    assertEquals(20 + 4 + 1, c.of(PUT), "one per file (job commit), one record per task, and _SUCCESS");
    assertEquals(4 + 4, c.of(GET), "per task: one read of its record, one of the job-abort marker (404)");
    assertEquals(0, c.of(MULTIPART_INITIATE) + c.of(MULTIPART_PART) + c.of(MULTIPART_COMPLETE), c.toString());
    assertEquals(1, c.of(BULK_DELETE), "records deleted in one request");
    assertEquals(1, c.of(MULTIPART_LIST), "one sweep per job");
    assertEquals(20 + 4 * 3 + 3, c.total(), "against 20 * 3 + 4 * 3 + 3 as pending uploads: " + c);
  }

  @Test
  void theRecordCarriesTheSmallestFilesWhileTheyFitItsBudget() throws IOException {
    conf.set(StagingConstants.INLINE_TASK_BYTES, "100");
    conf.set(StagingConstants.INLINE_FILE_BYTES, "65");
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("a.parquet", bytes(0, 0, 70));
    files.put("b.parquet", bytes(0, 1, 10));
    files.put("p=1/c.parquet", bytes(0, 2, 30));
    files.put("d.parquet", bytes(0, 3, 60));
    StagingTaskRecord r = commitTask(0, 1, 0, files).record();
    assertEquals(new TreeSet<>(List.of("b.parquet", "p=1/c.parquet", "d.parquet")), carried(r),
        "10 + 30 + 60 = 100 bytes fit; the 70-byte file is over 65 and uploaded");
    assertEquals(1, store.pendingUploads("").size());
    assertEquals(100, r.inlineBytes());
    commitJob();
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      assertArrayEquals(e.getValue(), store.bytes(DEST + e.getKey()), e.getKey());
    }
    assertEquals(0, store.pendingUploads("").size());
  }

  @Test
  void withTheDefaultsAFileOver128KiBIsAPendingUploadAndARecordCarriesAtMost1MiB() throws IOException {
    Map<String, byte[]> files = small(0, 3);
    files.put("big.parquet", bytes(0, 9, (int) StagingConstants.INLINE_FILE_BYTES_DEFAULT + 1));
    StagingTaskRecord r = commitTask(0, 2, 0, files).record();
    assertEquals(new TreeSet<>(List.of(name(0, 0), name(0, 1), name(0, 2))), carried(r));
    assertEquals(1, store.pendingUploads("").size());

    Map<String, byte[]> many = new LinkedHashMap<>();
    for (int i = 0; i < 12; i++) {
      many.put(name(1, i), bytes(1, i, 100_000));
    }
    StagingTaskRecord r1 = commitTask(1, 2, 0, many).record();
    assertEquals(10, carried(r1).size(), "ten files of 100,000 bytes fit 1 MiB, the eleventh does not");
    assertEquals(1_000_000, r1.inlineBytes());
    assertEquals(3, store.pendingUploads("").size());
    commitJob();
    assertArrayEquals(files.get("big.parquet"), store.bytes(DEST + "big.parquet"));
    for (Map.Entry<String, byte[]> e : many.entrySet()) {
      assertArrayEquals(e.getValue(), store.bytes(DEST + e.getKey()), e.getKey());
    }
    assertEquals(16, visible().size());
    assertEquals(0, store.pendingUploads("").size());
  }

  @Test
  void zeroTurnsItOff() throws IOException {
    conf.set(StagingConstants.INLINE_TASK_BYTES, "0");
    StagingTaskRecord r = commitTask(0, 1, 0, small(0, 2)).record();
    assertEquals(new TreeSet<>(), carried(r));
    assertEquals(2, store.pendingUploads("").size());
  }

  @Test
  void aLosingAttemptsCarriedFilesNeverAppear() throws IOException {
    commitTask(0, 1, 0, small(0, 2));
    Map<String, byte[]> other = Map.of("part-00000-" + JOB + "-speculative.parquet",
        "duplicate".getBytes(StandardCharsets.UTF_8));
    TaskCommitStage.Result second = commitTask(0, 1, 1, other);
    assertFalse(second.won());
    commitJob();
    assertEquals(List.of(DEST + name(0, 0), DEST + name(0, 1)), visible());
    assertEquals(0, store.counts().of(MULTIPART_ABORT), "nothing was uploaded, nothing to abort");
  }

  @Test
  void jobAbortLeavesNothingAndAfterAFailedJobCommitDeletesWhatItWrote() throws IOException {
    for (int t = 0; t < 2; t++) {
      commitTask(t, 2, 0, small(t, 2));
    }
    store.addFault(FaultRule.failing(PUT).matching("^" + Pattern.quote(DEST + name(1, 1)) + "$"));
    JobCommitStage stage = new JobCommitStage(store, layout, options(), 0, null);
    assertThrows(IOException.class, stage::commit);
    assertTrue(stage.completionStarted());
    assertEquals(3, visible().size(), "the other files were written");
    store.clearFaults();
    new JobAbortStage(store, layout, options()).abort(stage.completionStarted(), 0);
    assertEquals(List.of(), visible(), "abort deletes the written files");
    assertEquals(List.of(layout.jobAbortedKey()), store.keys(DEST), "records deleted; the abort marker stays");
    assertEquals(0, store.counts().of(MULTIPART_ABORT), "nothing was uploaded, nothing to abort");
  }

  @Test
  void jobAbortBeforeJobCommitLeavesNoFile() throws IOException {
    commitTask(0, 1, 0, small(0, 3));
    new JobAbortStage(store, layout, options()).abort(false, 0);
    assertEquals(List.of(), visible());
    assertEquals(List.of(layout.jobAbortedKey()), store.keys(DEST));
  }
}
