package io.objectcommit.staging;

import static io.objectcommit.testsupport.proxy.S3Operation.BUCKET;
import static io.objectcommit.testsupport.proxy.S3Operation.BULK_DELETE;
import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.HEAD;
import static io.objectcommit.testsupport.proxy.S3Operation.LIST;
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
import io.objectcommit.commit.ForeignTaskRecordException;
import io.objectcommit.commit.MissingTaskRecordException;
import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.staging.impl.JobAbortStage;
import io.objectcommit.staging.impl.JobCommitStage;
import io.objectcommit.staging.impl.JobLayout;
import io.objectcommit.staging.impl.TaskCommitStage;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task and job protocol against an in-memory store: what is visible when, and which requests it costs. */
class StagingProtocolTest {

  private static final String DEST = StagingJobFixture.DEST;
  private static final String JOB = "0b3f6c1e-1111-2222-3333-444455556666";

  @TempDir
  File tmp;

  private final StagingJobFixture job = new StagingJobFixture(JOB);
  private final InMemoryObjectStore store = job.store;
  private final JobLayout layout = job.layout;
  private final Configuration conf = job.conf;

  private StagingOptions options() {
    return job.options();
  }

  private String name(int task, int n) {
    return job.name(task, n);
  }

  /**
   * A file's content: {@code label}, then padding past the largest file a task record carries by default (128 KiB),
   * so that each file of these tests is a pending upload, as every larger file is (the files carried in the record:
   * {@code InlineFilesTest}).
   */
  static byte[] content(String label) {
    byte[] b = Arrays.copyOf(label.getBytes(StandardCharsets.UTF_8),
        (int) StagingConstants.INLINE_FILE_BYTES_DEFAULT + 1);
    Arrays.fill(b, label.length(), b.length, (byte) '.');
    return b;
  }

  /** Commits a task whose files are {@code files} (relative path to {@link #content} label). */
  private TaskCommitStage.Result commitTask(int task, int count, int attempt, Map<String, String> files)
      throws IOException {
    Map<String, byte[]> bytes = new LinkedHashMap<>();
    files.forEach((path, label) -> bytes.put(path, content(label)));
    return job.commitTask(tmp, task, count, attempt, bytes);
  }

  private Map<String, String> files(int task, int n, String partition) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put((partition.isEmpty() ? "" : partition + "/") + name(task, i), "task " + task + " file " + i);
    }
    return m;
  }

  private JobCommitStage.Summary commitJob() throws IOException {
    return job.commitJob();
  }

  private List<String> visible() {
    return job.visible();
  }

  @Test
  void nothingIsVisibleBeforeJobCommitAndEverythingAfter() throws IOException {
    for (int t = 0; t < 4; t++) {
      TaskCommitStage.Result r = commitTask(t, 4, 0, files(t, 2, ""));
      assertTrue(r.won());
      assertEquals(2, r.record().files.size(), "checksum files are not uploaded");
    }
    assertEquals(List.of(), visible(), "task commit makes nothing visible");
    assertEquals(8, store.pendingUploads(DEST).size());
    assertEquals(4, store.keys(layout.recordsPrefix()).size());

    JobCommitStage.Summary s = commitJob();
    assertEquals(8, visible().size());
    for (int t = 0; t < 4; t++) {
      for (int i = 0; i < 2; i++) {
        assertArrayEquals(content("task " + t + " file " + i), store.bytes(DEST + name(t, i)));
      }
    }
    assertEquals(0, store.pendingUploads(DEST).size(), "no upload left");
    assertEquals(List.of(), store.keys(layout.recordsPrefix()), "records deleted");
    assertEquals(4, s.get(CommitterStatistics.JOB_TASKS));
    assertEquals(8, s.get(CommitterStatistics.FILES_COMMITTED));
    assertEquals(8, s.filenames().size());
    SuccessData success = SuccessData.CODEC.fromBytes(store.bytes(DEST + "_SUCCESS"), "_SUCCESS");
    assertEquals(SuccessData.S3A_NAME, success.getName());
    assertEquals(JOB, success.getJobId());
    assertEquals(8L, success.getMetrics().get(SuccessData.METRIC_FILES_COMMITTED));
    assertEquals(8, success.getFilenames().size());
    assertTrue(success.getFilenames().contains("/" + DEST + name(3, 1)), success.getFilenames().toString());
  }

  @Test
  void noSuccessMarkerWhenJobCommitFails() throws IOException {
    commitTask(1, 2, 0, files(1, 1, ""));
    assertThrows(IOException.class, this::commitJob);
    assertFalse(store.exists(DEST + "_SUCCESS"));
  }

  @Test
  void requestsPerUploadedFileAreThreeAndOverheadGrowsWithTasks() throws IOException {
    for (int t = 0; t < 4; t++) {
      commitTask(t, 4, 0, files(t, 5, ""));
    }
    commitJob();
    InMemoryRequestCounts c = store.counts();
    assertEquals(20, c.of(MULTIPART_INITIATE));
    assertEquals(20, c.of(MULTIPART_PART));
    assertEquals(20, c.of(MULTIPART_COMPLETE));
    assertEquals(4 + 1, c.of(PUT), "one record per task, and _SUCCESS");
    assertEquals(4 + 4, c.of(GET), "per task: one read of its record, one of the job-abort marker (404)");
    assertEquals(1, c.of(BULK_DELETE), "records deleted in one request");
    assertEquals(1, c.of(MULTIPART_LIST), "one sweep per job");
    assertEquals(0, c.of(LIST), "append mode never lists objects: " + c);
    assertEquals(0, c.of(MULTIPART_ABORT));
    assertEquals(0, c.of(HEAD), c.toString());
    assertEquals(0, c.of(BUCKET), "a GET's 404 names the missing key: no bucket check: " + c);
    assertEquals(20 * 3 + 4 * 3 + 3, c.total(), c.toString());
  }

  @Test
  void largeFilesAreUploadedInParts() throws IOException {
    conf.set(StagingConstants.PART_SIZE, "5M");
    byte[] big = new byte[11 * 1024 * 1024 + 17];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) (i * 31 + (i >> 13));
    }
    File dir = new File(tmp, "big");
    dir.mkdirs();
    Files.write(new File(dir, "big.bin").toPath(), big);
    new TaskCommitStage(store, layout, options()).commit(dir, 0, 1, "attempt_big", "host");
    assertEquals(3, store.counts().of(MULTIPART_PART));
    commitJob();
    assertArrayEquals(big, store.bytes(DEST + "big.bin"));
  }

  @Test
  void aSecondAttemptOfACommittedTaskLosesAndAbortsItsUploads() throws IOException {
    commitTask(0, 2, 0, files(0, 2, ""));
    Map<String, String> other = new LinkedHashMap<>();
    other.put("part-00000-" + JOB + "-speculative.parquet", "duplicate");
    TaskCommitStage.Result second = commitTask(0, 2, 1, other);
    assertFalse(second.won());
    assertEquals("attempt_0_0", second.record().taskAttemptId);
    assertEquals(2, store.pendingUploads(DEST).size(), "the loser's upload is aborted");
    commitTask(1, 2, 0, files(1, 1, ""));
    commitJob();
    assertEquals(List.of(DEST + name(0, 0), DEST + name(0, 1), DEST + name(1, 0)), visible());
    assertEquals(0, store.pendingUploads(DEST).size());
  }

  @Test
  void aFailedUploadInTaskCommitAbortsTheTasksUploads() throws IOException {
    store.addFault(FaultRule.failing(MULTIPART_PART).matching(Pattern.quote(name(0, 2)) + "$"));
    assertThrows(IOException.class, () -> commitTask(0, 1, 0, files(0, 4, "")));
    assertEquals(0, store.pendingUploads(DEST).size(), "every upload the attempt started is aborted");
    assertEquals(List.of(), store.keys(layout.recordsPrefix()), "no record");
  }

  @Test
  void aMissingTaskRecordFailsJobCommitBeforeAnythingIsVisibleAndAbortRemovesAll() throws IOException {
    commitTask(0, 3, 0, files(0, 1, ""));
    commitTask(2, 3, 0, files(2, 1, ""));
    MissingTaskRecordException e = assertThrows(MissingTaskRecordException.class, this::commitJob);
    assertEquals(store.pathOf(layout.taskRecordKey(1)), e.path());
    assertEquals(List.of(), visible());
    long aborted = new JobAbortStage(store, layout, options()).abort(false, 0);
    assertEquals(2, aborted);
    assertEquals(0, store.pendingUploads("").size());
    assertEquals(List.of(layout.jobAbortedKey()), store.keys(DEST), "records deleted too; the abort marker stays");
  }

  @Test
  void abortFindsRecordsTheListingHides() throws IOException {
    for (int t = 0; t < 3; t++) {
      commitTask(t, 3, 0, files(t, 2, ""));
    }
    store.hideFromListing(layout.taskRecordKey(1));
    store.hideFromListing(layout.taskRecordKey(2));
    new JobAbortStage(store, layout, options()).abort(false, 0);
    assertEquals(0, store.pendingUploads("").size(), "records 1 and 2 found by probing below task 0's task count");
    assertEquals(List.of(), visible());
  }

  @Test
  void abortAfterAFailedCompletionDeletesWhatWasCompleted() throws IOException {
    for (int t = 0; t < 4; t++) {
      commitTask(t, 4, 0, files(t, 2, ""));
    }
    store.addFault(FaultRule.failing(MULTIPART_COMPLETE).matching("^" + Pattern.quote(DEST + name(3, 1)) + "$"));
    JobCommitStage stage = new JobCommitStage(store, layout, options(), Map.of(), null);
    assertThrows(IOException.class, stage::commit);
    assertTrue(stage.completionStarted());
    assertEquals(7, visible().size(), "the other files were completed");
    store.clearFaults();
    new JobAbortStage(store, layout, options()).abort(stage.completionStarted(), 0);
    assertEquals(List.of(), visible(), "abort deletes the completed files");
    assertEquals(0, store.pendingUploads("").size());
  }

  @Test
  void sweepAbortsUploadsOfTheJobThatNoRecordNames() throws IOException {
    commitTask(0, 1, 0, files(0, 1, ""));
    MultipartUpload orphan = store.initiateMultipartUpload(DEST + "part-00007-" + JOB + "-c000.parquet");
    MultipartUpload otherJob = store.initiateMultipartUpload(DEST + "part-00000-another-job.parquet");
    JobCommitStage.Summary s = commitJob();
    assertEquals(1, s.get(CommitterStatistics.JOB_UPLOADS_SWEPT));
    SuccessData success = SuccessData.CODEC.fromBytes(store.bytes(DEST + "_SUCCESS"), "_SUCCESS");
    assertEquals(1L, success.getMetrics().get(CommitterStatistics.JOB_UPLOADS_SWEPT), "_SUCCESS has the real count");
    assertFalse(store.pendingUploads("").contains(orphan));
    assertTrue(store.pendingUploads("").contains(otherJob), "other jobs' uploads are left alone");
  }

  @Test
  void sweepAbortsAnUploadWhoseInitiationWasRetriedWhenFileNamesCarrySparksWriteUuid() throws IOException {
    // Spark's own commit protocol names files with a write UUID that is not the committer's job id.
    String sparkUuid = "dfc50e12-945e-4814-991c-0f7e178aa288";
    commitTask(0, 1, 0, Map.of("part-00000-" + sparkUuid + "-c000.snappy.parquet", "rows"));
    // The store started an upload for the same key but its answer was lost; the client's retry started another.
    MultipartUpload lost = store.initiateMultipartUpload(DEST + "part-00000-" + sparkUuid + "-c000.snappy.parquet");
    MultipartUpload otherJob = store.initiateMultipartUpload(DEST + "part-00000-" + sparkUuid.replace('d', 'e')
        + "-c000.snappy.parquet");
    JobCommitStage.Summary s = commitJob();
    assertEquals(1, s.get(CommitterStatistics.JOB_UPLOADS_SWEPT));
    assertFalse(store.pendingUploads("").contains(lost));
    assertTrue(store.pendingUploads("").contains(otherJob), "another write's uploads are left alone");
    assertEquals(List.of(DEST + "part-00000-" + sparkUuid + "-c000.snappy.parquet"), visible());
  }

  @Test
  void jobAbortAlsoAbortsAnUploadWhoseInitiationWasRetried() throws IOException {
    String sparkUuid = "dfc50e12-945e-4814-991c-0f7e178aa288";
    commitTask(0, 2, 0, Map.of("part-00000-" + sparkUuid + "-c000.snappy.parquet", "rows"));
    store.initiateMultipartUpload(DEST + "part-00000-" + sparkUuid + "-c000.snappy.parquet");
    long aborted = new JobAbortStage(store, layout, options()).abort(false, 0);
    assertEquals(2, aborted, "the recorded upload and the one no record names");
    assertEquals(0, store.pendingUploads("").size());
  }

  @Test
  void conflictModeFailRefusesADestinationWithData() throws IOException {
    store.put(DEST + "old.parquet", Payload.of(new byte[] {1}),
        WriteCondition.none());
    conf.set(StagingConstants.CONFLICT_MODE, "fail");
    commitTask(0, 1, 0, files(0, 1, ""));
    assertThrows(CommitConflictException.class, this::commitJob);
    assertEquals(List.of(DEST + "old.parquet"), visible());
    new JobAbortStage(store, layout, options()).abort(false, 0);
    assertEquals(0, store.pendingUploads("").size());
  }

  @Test
  void conflictModeFailAcceptsAnEmptyDestination() throws IOException {
    conf.set(StagingConstants.CONFLICT_MODE, "fail");
    commitTask(0, 1, 0, files(0, 1, ""));
    commitJob();
    assertEquals(List.of(DEST + name(0, 0)), visible());
  }

  @Test
  void conflictModeReplaceDeletesOldDataAtJobCommitOnly() throws IOException {
    store.put(DEST + "old/a.parquet", Payload.of(new byte[] {1}),
        WriteCondition.none());
    store.put(DEST + "_SUCCESS", Payload.of(new byte[] {1}),
        WriteCondition.none());
    store.put("warehouse/other/keep.parquet", Payload.of(new byte[] {1}),
        WriteCondition.none());
    conf.set(StagingConstants.CONFLICT_MODE, "replace");
    commitTask(0, 2, 0, files(0, 1, ""));
    commitTask(1, 2, 0, files(1, 1, ""));
    assertEquals(List.of(DEST + "old/a.parquet"), visible(), "old data stays until job commit");
    JobCommitStage.Summary s = commitJob();
    assertEquals(List.of(DEST + name(0, 0), DEST + name(1, 0)), visible());
    assertEquals(2, s.get(CommitterStatistics.JOB_OLD_OBJECTS_DELETED));
    assertTrue(store.exists("warehouse/other/keep.parquet"));
  }

  @Test
  void partitionedReplaceTouchesOnlyThePartitionsWritten() throws IOException {
    for (String p : Arrays.asList("p=1", "p=2", "p=3")) {
      store.put(DEST + p + "/old.parquet", Payload.of(new byte[] {1}),
          WriteCondition.none());
    }
    conf.set(StagingConstants.COMMITTER, "partitioned");
    conf.set(StagingConstants.CONFLICT_MODE, "replace");
    commitTask(0, 2, 0, files(0, 1, "p=1"));
    commitTask(1, 2, 0, files(1, 1, "p=4"));
    JobCommitStage.Summary s = commitJob();
    assertEquals(List.of(DEST + "p=1/" + name(0, 0), DEST + "p=2/old.parquet", DEST + "p=3/old.parquet",
        DEST + "p=4/" + name(1, 0)), visible());
    assertEquals(2, s.get(CommitterStatistics.JOB_PARTITIONS));
  }

  @Test
  void partitionedFailRefusesOnlyAnExistingPartition() throws IOException {
    store.put(DEST + "p=2/old.parquet", Payload.of(new byte[] {1}),
        WriteCondition.none());
    conf.set(StagingConstants.COMMITTER, "partitioned");
    conf.set(StagingConstants.CONFLICT_MODE, "fail");
    commitTask(0, 1, 0, files(0, 1, "p=1"));
    commitJob();
    assertEquals(List.of(DEST + "p=1/" + name(0, 0), DEST + "p=2/old.parquet"), visible());

    JobLayout second = new JobLayout("bucket", "warehouse/table", "job-2");
    File dir = new File(tmp, "second/p=2");
    dir.mkdirs();
    Files.write(new File(dir, "new.parquet").toPath(), new byte[] {2});
    new TaskCommitStage(store, second, options()).commit(new File(tmp, "second"), 0, 1, "a", "h");
    CommitConflictException e = assertThrows(CommitConflictException.class,
        () -> new JobCommitStage(store, second, options(), Map.of(), null).commit());
    assertEquals("p=2", e.partition());
  }

  @Test
  void dynamicPartitionOverwriteReplacesExactlyThePartitionsWritten() throws IOException {
    for (String p : Arrays.asList("p=1", "p=2")) {
      store.put(DEST + p + "/old.parquet", Payload.of(new byte[] {1}),
          WriteCondition.none());
    }
    conf.setBoolean(StagingConstants.DYNAMIC_PARTITION_OVERWRITE, true);
    conf.set(StagingConstants.CONFLICT_MODE, "fail"); // dynamic overwrite wins over the conflict mode
    commitTask(0, 1, 0, files(0, 2, "p=2"));
    commitJob();
    assertEquals(List.of(DEST + "p=1/old.parquet", DEST + "p=2/" + name(0, 0), DEST + "p=2/" + name(0, 1)),
        visible());
  }

  @Test
  void sparkOverwriteThroughTheProtocolReplacesTheNamedPaths() throws IOException {
    store.put(DEST + "p=1/old.parquet", Payload.of(new byte[] {1}),
        WriteCondition.none());
    store.put(DEST + "p=2/old.parquet", Payload.of(new byte[] {1}),
        WriteCondition.none());
    conf.set(StagingConstants.REPLACE_PATHS, "p=1");
    commitTask(0, 1, 0, files(0, 1, "p=1"));
    commitJob();
    assertEquals(List.of(DEST + "p=1/" + name(0, 0), DEST + "p=2/old.parquet"), visible());
  }

  @Test
  void recordsOfAnotherJobAreRefused() throws IOException {
    commitTask(0, 1, 0, files(0, 1, ""));
    StagingTaskRecord r = StagingTaskRecord.CODEC.load(store, layout.taskRecordKey(0));
    StagingTaskRecord foreign = new StagingTaskRecord("other-job", 0, 1, "x", "h", r.files);
    store.put(layout.taskRecordKey(0), Payload.of(StagingTaskRecord.CODEC.toBytes(foreign)),
        WriteCondition.none());
    assertThrows(ForeignTaskRecordException.class, this::commitJob);
    assertEquals(List.of(), visible());
  }

  @Test
  void withoutATaskCountRecordsAreReadUpToTheFirstMissingOne() throws IOException {
    commitTask(0, 0, 0, files(0, 1, ""));
    commitTask(1, 0, 0, files(1, 1, ""));
    JobCommitStage.Summary s = commitJob();
    assertEquals(2, s.get(CommitterStatistics.JOB_TASKS));
    assertEquals(2, visible().size());
  }

  @Test
  void emptyTasksStillSaveARecord() throws IOException {
    commitTask(0, 2, 0, Map.of());
    commitTask(1, 2, 0, files(1, 1, ""));
    JobCommitStage.Summary s = commitJob();
    assertEquals(2, s.get(CommitterStatistics.JOB_TASKS));
    assertEquals(List.of(DEST + name(1, 0)), visible());
  }
}
