package io.objectcommit.direct;

import static io.objectcommit.store.statistics.StoreStatisticNames.OP_PUT;
import static io.objectcommit.testsupport.proxy.S3Operation.BULK_DELETE;
import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.HEAD;
import static io.objectcommit.testsupport.proxy.S3Operation.LIST;
import static io.objectcommit.testsupport.proxy.S3Operation.PUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommitConstants;
import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.CommitterStatistics;
import io.objectcommit.commit.JobId;
import io.objectcommit.commit.TaskRecordHandOver;
import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.direct.impl.AttemptRegistry;
import io.objectcommit.direct.impl.OutputLocation;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.store.testing.RequestHook;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The protocol of both direct committers against the in-memory store: exact files left and exact requests sent,
 * for normal commits, retried tasks (aborted, crashed, zombie), job abort and failed job commit.
 */
class DirectCommitProtocolTest {

  @AfterEach
  void noAttemptLeftRegistered() {
    assertEquals(0, AttemptRegistry.size(), "every attempt unregisters when it commits or aborts");
  }

  private static List<String> sorted(List<String> l) {
    return new ArrayList<>(new TreeSet<>(l));
  }

  private static SuccessData success(Harness h) throws IOException {
    return SuccessData.CODEC.fromBytes(h.store.bytes(Harness.key("_SUCCESS")), "_SUCCESS");
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void commitWritesEachFileOnceAndCostsTwoRequestsPerTaskPlusJobCommit(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    List<String> expected = new ArrayList<>();
    Harness.Attempt t0 = h.attempt(0, 0);
    for (int c = 0; c < 3; c++) {
      expected.add(t0.write(c));
    }
    assertTrue(t0.committer.getWorkPath().toString().startsWith("ocdirect://" + Harness.BUCKET + "/attempt_"),
        t0.committer.getWorkPath().toString());
    t0.commit();
    Harness.Attempt t1 = h.attempt(1, 0);
    expected.add(t1.write(0));
    t1.commit();
    Harness.Attempt t2 = h.attempt(2, 0);
    t2.commit();

    InMemoryRequestCounts tasks = h.store.counts();
    assertEquals(4 + 5, tasks.of(PUT), "one upload per file, and declare + commit per task with files, commit"
        + " only for the empty task: " + tasks);
    assertEquals(5, tasks.conditional(PUT), "declare + commit per task with files, commit only for the"
        + " empty task: " + tasks);
    assertEquals(3, tasks.of(GET), "one read of the job-abort marker (a 404) per task commit: " + tasks);
    assertEquals(12, tasks.total(), tasks.toString());

    driver.commitJob(h.job());
    InMemoryRequestCounts job = h.store.counts().minus(tasks);
    assertEquals(5, job.of(GET), "3 task records + one 404 per task type: " + job);
    assertEquals(2, job.of(PUT), "commit marker and _SUCCESS: " + job);
    assertEquals(0, job.conditional(PUT), "commit marker and _SUCCESS: " + job);
    assertEquals(1, job.of(BULK_DELETE), "bookkeeping removed at once: " + job);
    assertEquals(1, job.of(LIST), "one LIST of the job's bookkeeping: " + job);
    assertEquals(0, job.of(HEAD), "no HEAD: " + job);
    assertEquals(9, job.total(), job.toString());

    expected.add(Harness.key("_SUCCESS"));
    assertEquals(sorted(expected), h.keys(), "exactly the files and _SUCCESS, no bookkeeping left");
    SuccessData s = success(h);
    assertEquals(Harness.UUID, s.getJobId());
    assertEquals(CommitConstants.SPARK_WRITE_JOB_UUID, s.getJobIdSource());
    assertEquals(4L, s.getMetrics().get(SuccessData.METRIC_FILES_COMMITTED));
    assertEquals(4, s.getFilenames().size());
    assertEquals(4L, s.getIostatistics().counters.get("task." + OP_PUT));
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aCommittedAttemptHandsOverItsRecordAsStoredAndTheDriverCommitsWithIt(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    List<String> expected = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      Harness.Attempt a = h.attempt(t, 0);
      expected.add(a.write(0));
      assertNull(((TaskRecordHandOver) a.committer).committedTaskRecord(), "nothing before the commit");
      a.commit();
      CommittedTaskRecord r = ((TaskRecordHandOver) a.committer).committedTaskRecord();
      ObjectInfo stored = h.store.head(r.key()).orElseThrow();
      assertEquals(stored.etag(), r.etag(), "the ETag of the record as stored: " + r);
      assertEquals(a.ctx.getTaskAttemptID().toString(), r.record(DirectTaskRecord.CODEC, r.key()).committedAttempt);
      assertEquals(Set.of(expected.get(t)), r.record(DirectTaskRecord.CODEC, r.key()).committedKeys());
      ((TaskRecordHandOver) driver).handOver(r);
    }
    InMemoryRequestCounts tasks = h.store.counts();

    driver.commitJob(h.job());

    // outside Spark the records do not say how many tasks the stage has: the hand-over is not complete, and job
    // commit reads the records as without one
    InMemoryRequestCounts job = h.store.counts().minus(tasks);
    assertEquals(5, job.of(GET), "3 task records + one 404 per task type: " + job);
    expected.add(Harness.key("_SUCCESS"));
    assertEquals(sorted(expected), h.keys(), "exactly the files and _SUCCESS, no bookkeeping left");
  }

  /**
   * Spark 4.2's order: {@code FileFormatWriter} calls job setup on a {@code Job} without an id (Spark's commit
   * protocol has set only {@code mapreduce.job.id}) and sets {@code spark.sql.sources.writeJobUUID} afterwards.
   */
  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void jobSetupBeforeSparksUuidCommitsExactlyUnderTheIdJobSetupChose(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    h.jobConf.unset(CommitConstants.SPARK_WRITE_JOB_UUID);
    h.jobConf.set(CommitConstants.HADOOP_JOB_ID_KEY, h.jobId.toString());
    PathOutputCommitter driver = h.driver();
    driver.setupJob(new JobContextImpl(h.jobConf, null));
    h.jobConf.set(CommitConstants.SPARK_WRITE_JOB_UUID, Harness.UUID);
    List<String> expected = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      Harness.Attempt a = h.attempt(t, 0);
      expected.add(a.write(0));
      a.commit();
    }
    driver.commitJob(h.job());
    expected.add(Harness.key("_SUCCESS"));
    assertEquals(sorted(expected), h.keys(), "exactly the files and _SUCCESS, no bookkeeping left");
    SuccessData s = success(h);
    assertEquals(h.jobId.toString(), s.getJobId());
    assertEquals(JobId.HADOOP_JOB_ID, s.getJobIdSource());
    assertEquals(2L, s.getMetrics().get(SuccessData.METRIC_FILES_COMMITTED));
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void anAbortedAttemptLeavesNothingAndTheRetryWritesFewerFiles(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt a0 = h.attempt(0, 0);
    for (int c = 0; c < 4; c++) {
      a0.write(c);
    }
    a0.abort();
    assertEquals(List.of(), h.outputKeys(), "abortTask deleted the attempt's files");
    Harness.Attempt a1 = h.attempt(0, 1);
    String k0 = a1.write(0);
    String k1 = a1.write(1);
    a1.commit();
    driver.commitJob(h.job());
    assertEquals(sorted(List.of(k0, k1, Harness.key("_SUCCESS"))), h.keys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aCrashedAttemptsExtraFilesAreRemovedByTheNextAttemptsCommit(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt a0 = h.attempt(3, 0);
    for (int c = 0; c < 5; c++) {
      a0.write(c);
    }
    a0.crash();
    assertEquals(5, h.outputKeys().size());
    InMemoryRequestCounts before = h.store.counts();
    Harness.Attempt a1 = h.attempt(3, 1);
    String k0 = a1.write(0);
    String k1 = a1.write(1);
    a1.commit();
    InMemoryRequestCounts retry = h.store.counts().minus(before);
    assertEquals(List.of(k0, k1), h.outputKeys(), "the crashed attempt's c002..c004 are gone");
    assertEquals(6, retry.of(HEAD), "probes c000..c005 of the crashed attempt's group (c005 missing): "
        + retry);
    assertEquals(1, retry.of(BULK_DELETE), retry.toString());
    driver.commitJob(h.job());
    assertEquals(sorted(List.of(k0, k1, Harness.key("_SUCCESS"))), h.keys());
    assertEquals(0L, success(h).getMetrics().get(CommitterStatistics.JOB_LEFTOVERS_DELETED), "the retry's commit removed them");
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void partitionedOutputOfACrashedAttemptIsRemovedInEveryDirectory(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt a0 = h.attempt(1, 0);
    a0.write("day=1", 0, "x");
    a0.write("day=1", 1, "x");
    a0.write("day=2", 0, "x");
    a0.write("day=3", 0, "x");
    a0.crash();
    Harness.Attempt a1 = h.attempt(1, 7);
    List<String> expected = new ArrayList<>();
    expected.add(a1.write("day=1", 0, "y"));
    expected.add(a1.write("day=2", 0, "y"));
    a1.commit();
    Harness.Attempt other = h.attempt(0, 0);
    expected.add(other.write("day=3", 0, "z"));
    other.commit();
    driver.commitJob(h.job());
    expected.add(Harness.key("_SUCCESS"));
    assertEquals(sorted(expected), h.keys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aZombieIsFencedFromNewGroupsAndItsLateFilesAreRemovedAtJobCommit(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    zombie.write(1);
    Harness.Attempt a1 = h.attempt(0, 1);
    String k0 = a1.write(0);
    a1.commit();
    // the zombie carries on: a new file of a group it declared, then a file of a new group
    String late = zombie.write(2);
    assertTrue(h.keys().contains(late));
    assertThrows(SupersededAttemptException.class, () -> zombie.write("day=9", 0, "late"));
    zombie.crash();
    driver.commitJob(h.job());
    assertEquals(sorted(List.of(k0, Harness.key("_SUCCESS"))), h.keys(), "the zombie's c001 and c002 are gone");
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aZombieAbortingAfterTheRetryWroteTheSameKeyDoesNotLoseTheRetrysFile(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    String k = zombie.write(0);
    Harness.Attempt retry = h.attempt(0, 1);
    assertEquals(k, retry.write(0), "both attempts of the task name their file alike");
    zombie.abort(); // the lost executor's attempt fails late and runs its task abort: it deletes the key
    OverlappingAbortException refused = assertThrows(OverlappingAbortException.class, retry::commit,
        "the retry's file is gone: committing would declare a file the store does not hold");
    assertEquals(List.of(k), refused.keys());
    assertFalse(refused.pending());
    refusedThenRunAgain(h, driver, retry, k);
  }

  /** The refused attempt aborts; Spark runs the task again: that attempt commits and the job holds its file. */
  private static void refusedThenRunAgain(Harness h, PathOutputCommitter driver, Harness.Attempt refused, String key)
      throws Exception {
    refused.abort();
    Harness.Attempt again = h.attempt(0, 2);
    assertEquals(key, again.write(0));
    again.commit();
    driver.commitJob(h.job());
    assertEquals(sorted(List.of(key, Harness.key("_SUCCESS"))), h.keys(), "the committed attempt's file is there");
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aCommitWaitsForAnAbortStillDeletingItsKeysThenRefuses(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    String k = zombie.write(0);
    Harness.Attempt retry = h.attempt(0, 1);
    retry.write(0);
    CompletableFuture<Throwable> commit = new CompletableFuture<>();
    boolean[] waitedWhileDeleting = {false};
    // the zombie's abort has recorded ABORTING and is about to delete: the retry commits meanwhile
    h.store.addHook(RequestHook.before(BULK_DELETE, "part-00000", () -> {
      Thread t = new Thread(() -> {
        try {
          retry.commit();
          commit.complete(null);
        } catch (Throwable e) {
          commit.complete(e);
        }
      });
      t.start();
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      waitedWhileDeleting[0] = !commit.isDone();
    }));
    zombie.abort();
    Throwable refused = commit.get(60, TimeUnit.SECONDS);
    assertTrue(waitedWhileDeleting[0], "the commit waited while the abort was deleting");
    assertTrue(refused instanceof OverlappingAbortException, "refused: " + refused);
    assertEquals(List.of(k), ((OverlappingAbortException) refused).keys());
    assertFalse(((OverlappingAbortException) refused).pending(), "decided once the abort had finished");
    refusedThenRunAgain(h, driver, retry, k);
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aRetryUploadingAfterTheZombiesAbortCommitsWithOneHeadPerSharedKey(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    String k0 = zombie.write(0);
    zombie.write(1);
    zombie.abort();
    Harness.Attempt retry = h.attempt(0, 1);
    assertEquals(k0, retry.write(0));
    InMemoryRequestCounts before = h.store.counts();
    retry.commit();
    InMemoryRequestCounts commit = h.store.counts().minus(before);
    assertEquals(1, commit.of(HEAD), "one HEAD: the key the aborted attempt deleted and this one wrote: " + commit);
    driver.commitJob(h.job());
    assertEquals(sorted(List.of(k0, Harness.key("_SUCCESS"))), h.keys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void abortJobDeletesEveryFileOfTheJobAndNothingElse(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    h.store.put(Harness.key("part-00000-earlier-job-c000.parquet"),
        Payload.of(new byte[] {1}), WriteCondition.none());
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt t0 = h.attempt(0, 0);
    t0.write(0);
    t0.commit();
    Harness.Attempt t2 = h.attempt(2, 0);
    t2.write("day=1", 0, "x");
    t2.write("day=1", 1, "x");
    t2.crash();
    driver.abortJob(h.job(), JobStatus.State.FAILED);
    String crashedTask = OutputLocation.of(h.output).taskRecordKey(Harness.UUID, "m-000002");
    assertEquals(List.of(h.abortMarkerKey(), crashedTask, Harness.key("part-00000-earlier-job-c000.parquet")),
        h.keys(), "the job's committed and uncommitted files and its other bookkeeping are gone; the earlier job's"
            + " file stays, the job-abort marker, and the record of the attempt that was still writing (it may"
            + " still run)");
    Configuration conf = new Configuration(false);
    InMemoryStoreFactory.use(conf);
    try (DirectJobCleaner cleaner = DirectJobCleaner.open(h.output, conf)) {
      assertEquals(List.of(Harness.UUID), cleaner.pendingJobs(), "the kept record makes the job pending");
      cleaner.clean(Harness.UUID);
      assertEquals(List.of(), cleaner.pendingJobs());
    }
    assertEquals(List.of(h.abortMarkerKey(), Harness.key("part-00000-earlier-job-c000.parquet")), h.keys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aFailedJobCommitWritesNoSuccessAndAbortCleansUp(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt t0 = h.attempt(0, 0);
    t0.write(0);
    t0.commit();
    h.store.addFault(FaultRule.failing().matching("_SUCCESS$")
        .throwing(p -> new PathIOException(p, "injected failure")));
    assertThrows(PathIOException.class, () -> driver.commitJob(h.job()));
    assertFalse(h.keys().contains(Harness.key("_SUCCESS")));
    h.store.clearFaults();
    driver.abortJob(h.job(), JobStatus.State.FAILED);
    assertEquals(List.of(h.abortMarkerKey()), h.keys(), "only the job-abort marker");
    Configuration conf = new Configuration(false);
    InMemoryStoreFactory.use(conf);
    try (DirectJobCleaner cleaner = DirectJobCleaner.open(h.output, conf)) {
      assertEquals(List.of(), cleaner.pendingJobs(), "an aborted job is not pending");
    }
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void anAbortedStreamAndAFailedUploadLeaveNothing(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    h.setUpJob();
    Harness.Attempt a = h.attempt(0, 0);
    Path p = new Path(a.committer.getWorkPath(), Harness.fileName(0, 0));
    FSDataOutputStream out = p.getFileSystem(a.ctx.getConfiguration()).create(p, false);
    out.write(new byte[1000]);
    out.abort();
    out.close();
    assertEquals(List.of(), h.keys(), "an aborted stream uploads nothing, and declares nothing");

    // the upload of the file (an unconditional PUT of its final key) fails
    h.store.addFault(FaultRule.failing(PUT).matching(Harness.fileName(0, 1) + "$")
        .throwing(path -> new PathIOException(path, "boom")));
    assertThrows(PathIOException.class, () -> a.write(1));
    h.store.clearFaults();
    assertEquals(List.of(), h.outputKeys(), "a failed upload leaves no object");
    a.abort();
    assertEquals(List.of(), h.outputKeys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void theCleanupCommandRemovesAJobThatNeverCommitted(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    h.setUpJob();
    Harness.Attempt t0 = h.attempt(0, 0);
    t0.write(0);
    t0.commit();
    Harness.Attempt t1 = h.attempt(1, 0);
    t1.write("d=1", 0, "x");
    t1.crash();
    // the driver dies here: no job commit, no abort
    Configuration conf = new Configuration(false);
    InMemoryStoreFactory.use(conf);
    // what an interrupted store guarantee check left in the bookkeeping is no job
    String probe = OutputLocation.of(h.output).probePrefix() + "check-0f0e/inm-put";
    h.store.createExclusive(probe, Payload.of(new byte[1]));
    try (DirectJobCleaner cleaner = DirectJobCleaner.open(h.output, conf)) {
      assertEquals(List.of(Harness.UUID), cleaner.pendingJobs());
      h.store.delete(probe);
      assertEquals(2, cleaner.clean(Harness.UUID), "t0's committed file and t1's crashed one");
      assertEquals(List.of(), h.keys());
      assertEquals(List.of(), cleaner.pendingJobs());
    }
  }
}
