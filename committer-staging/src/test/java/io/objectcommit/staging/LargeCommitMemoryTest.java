package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommitterStatistics;
import io.objectcommit.staging.files.PendingFile;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.staging.impl.JobCommitStage;
import io.objectcommit.staging.impl.JobLayout;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.Payload;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * A job commit of 100,000 files (1,000 tasks of 100 files) never holds all pending uploads in memory: records are
 * cached only up to {@code commit.cached-uploads}, the rest are read again a window at a time, and {@code
 * _SUCCESS} names at most 100 files.
 */
class LargeCommitMemoryTest {

  private static final int TASKS = 1_000;
  private static final int FILES_PER_TASK = 100;
  private static final int FILES = TASKS * FILES_PER_TASK;

  private static InMemoryObjectStore stagedJob(JobLayout layout) throws IOException {
    InMemoryObjectStore store = InMemoryObjectStore.create("bucket");
    for (int t = 0; t < TASKS; t++) {
      List<PendingFile> files = new ArrayList<>(FILES_PER_TASK);
      for (int f = 0; f < FILES_PER_TASK; f++) {
        String path = String.format("day=%03d/part-%05d-%03d-%s.parquet", t % 10, t, f, layout.jobId());
        MultipartUpload u = store.initiateMultipartUpload(layout.finalKey(path));
        UploadedPart p = store.uploadPart(u, 1, Payload.of(new byte[0]));
        files.add(new PendingFile(path, u.uploadId(), 1000, List.of(p.etag())));
      }
      StagingTaskRecord r = new StagingTaskRecord(layout.jobId(), t, TASKS, "attempt_" + t, "host", files);
      StagingTaskRecord.CODEC.save(store, layout.taskRecordKey(t), r, WriteCondition.ifAbsent());
    }
    store.resetCounts();
    return store;
  }

  private static JobCommitStage.Summary commit(InMemoryObjectStore store, JobLayout layout, int cachedUploads)
      throws IOException {
    Configuration conf = new Configuration(false);
    conf.setInt(StagingConstants.COMMIT_CACHED_UPLOADS, cachedUploads);
    conf.setInt(StagingConstants.COMMIT_THREADS, 8);
    conf.set(StagingConstants.COMMITTER, "partitioned");
    StagingOptions options = StagingOptions.from(conf, "bucket", null);
    return new JobCommitStage(store, layout, options, Map.of(), null).commit();
  }

  @Test
  void hundredThousandFilesWithTheDefaultCache() throws IOException {
    JobLayout layout = new JobLayout("bucket", "big/table", "job-100k");
    InMemoryObjectStore store = stagedJob(layout);
    JobCommitStage.Summary s = commit(store, layout, StagingConstants.COMMIT_CACHED_UPLOADS_DEFAULT);

    assertEquals(FILES, s.get(CommitterStatistics.FILES_COMMITTED));
    assertEquals(FILES, store.counts().of(S3Operation.MULTIPART_COMPLETE));
    assertEquals(FILES, store.keys("big/table/").size());
    assertEquals(0, store.pendingUploads("").size());
    assertEquals(10, s.partitions().size(), "partitions are kept, files are not");
    assertEquals(100, s.filenames().size(), "_SUCCESS lists at most 100 files");
    // 200 tasks fit the 20,000-upload cache; the other 800 records are read a second time
    assertEquals(800, s.get(CommitterStatistics.JOB_RECORDS_RELOADED));
    assertEquals(TASKS + 800, store.counts().of(S3Operation.GET));
    long held = s.get(CommitterStatistics.JOB_UPLOADS_HELD_MAX);
    long window = 64L * FILES_PER_TASK;
    assertTrue(held <= StagingConstants.COMMIT_CACHED_UPLOADS_DEFAULT + window, "held " + held);
    assertTrue(held < FILES / 3, "held " + held);
    assertEquals(1, store.counts().of(S3Operation.BULK_DELETE), "1,000 records deleted in one request");
  }

  @Test
  void withoutACacheOnlyOneWindowIsHeld() throws IOException {
    JobLayout layout = new JobLayout("bucket", "big/table", "job-100k");
    InMemoryObjectStore store = stagedJob(layout);
    JobCommitStage.Summary s = commit(store, layout, 0);
    assertEquals(FILES, store.keys("big/table/").size());
    assertEquals(TASKS, s.get(CommitterStatistics.JOB_RECORDS_RELOADED));
    assertEquals(64L * FILES_PER_TASK, s.get(CommitterStatistics.JOB_UPLOADS_HELD_MAX));
  }

  @Test
  void heapGrowthStaysFarBelowTheWholeFileList() throws IOException {
    JobLayout layout = new JobLayout("bucket", "big/table", "job-100k");
    InMemoryObjectStore store = stagedJob(layout);
    // what holding every pending upload would take: the records themselves, parsed
    long allRecordsBytes = 0;
    for (int t = 0; t < TASKS; t++) {
      allRecordsBytes += store.bytes(layout.taskRecordKey(t)).length;
    }
    assertTrue(allRecordsBytes > 10_000_000L, "records total " + allRecordsBytes);
    JobCommitStage.Summary s = commit(store, layout, 0);
    // with no cache, at most one window of 64 records (6,400 uploads of 100,000) is parsed at a time
    assertTrue(s.get(CommitterStatistics.JOB_UPLOADS_HELD_MAX) * 15 < FILES,
        "held " + s.get(CommitterStatistics.JOB_UPLOADS_HELD_MAX));
  }
}
