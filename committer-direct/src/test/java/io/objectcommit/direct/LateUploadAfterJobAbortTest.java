package io.objectcommit.direct;

import static io.objectcommit.testsupport.proxy.S3Operation.BULK_DELETE;
import static io.objectcommit.testsupport.proxy.S3Operation.DELETE;
import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.HEAD;
import static io.objectcommit.testsupport.proxy.S3Operation.PUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.JobAbortedException;
import io.objectcommit.direct.impl.AttemptRegistry;
import io.objectcommit.direct.impl.OutputLocation;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.store.testing.RequestHook;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28: a task attempt still running when Spark aborts its job (Spark cancels tasks asynchronously; an executor
 * the driver lost keeps writing) must leave no object in the destination, however its uploads interleave with the
 * job abort. Each test runs the job abort at one fixed point of the attempt, through a one-shot hook of the
 * in-memory store ({@link RequestHook}), and checks that only the job-abort marker is left.
 */
class LateUploadAfterJobAbortTest {

  @AfterEach
  void noAttemptLeftRegistered() {
    assertEquals(0, AttemptRegistry.size(), "every attempt unregisters when it commits or aborts");
  }

  /** The driver's job abort, as Spark calls it. */
  private static RequestHook.Action abortJob(Harness h, PathOutputCommitter driver) {
    return () -> driver.abortJob(h.job(), JobStatus.State.FAILED);
  }

  private static String recordKey(Harness h, int task) {
    return OutputLocation.of(h.output).taskRecordKey(Harness.UUID, OutputLocation.taskName('m', task));
  }

  /** The attempt's file {@code counter} of task {@code task}, as a pattern of its key. */
  private static String fileKey(int task, int counter) {
    return Pattern.quote(Harness.fileName(task, counter)) + "$";
  }

  /** Task commit fails naming the job, the destination and the marker; Spark then aborts the task. */
  private static void commitFailsAsAborted(Harness h, Harness.Attempt zombie, int deleted) throws IOException {
    JobAbortedException e = assertThrows(JobAbortedException.class, zombie::commit);
    assertEquals(Harness.UUID, e.jobId());
    assertEquals(zombie.ctx.getTaskAttemptID().toString(), e.attemptId());
    assertEquals("s3://" + Harness.BUCKET + "/" + Harness.TABLE.substring(0, Harness.TABLE.length() - 1),
        e.getPath().toString(), "the destination");
    assertTrue(e.getMessage().contains("job " + Harness.UUID + " was aborted")
        && e.getMessage().contains(h.abortMarkerKey()) && e.getMessage().contains("deleted the " + deleted
            + " file(s)"), e.getMessage());
    zombie.abort(); // what Spark does after a failed task commit
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void anUploadLandingAfterTheJobAbortFinishedIsDeletedByItsAttemptAtTaskCommit(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt other = h.attempt(1, 0);
    other.write(0);
    other.commit();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    // the upload of c001 is sent, the whole job abort runs, then the upload lands
    RequestHook hook = RequestHook.before(PUT, fileKey(0, 1), abortJob(h, driver));
    h.store.addHook(hook);
    String late = zombie.write(1);
    assertTrue(hook.fired());
    assertEquals(List.of(late), h.outputKeys(), "the late upload is in the destination after the abort finished");

    commitFailsAsAborted(h, zombie, 2);
    assertEquals(List.of(h.abortMarkerKey()), h.keys(), "no object of the job left, no task record: the marker only");
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aLateAttemptThatIsAbortedInsteadLeavesNothingEither(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    h.store.addHook(RequestHook.before(PUT, fileKey(0, 1), abortJob(h, driver)));
    zombie.write(1);
    assertEquals(1, h.outputKeys().size(), "c001 landed after the abort: " + h.keys());
    InMemoryRequestCounts before = h.store.counts();
    zombie.abort(); // Spark kills the task
    InMemoryRequestCounts abort = h.store.counts().minus(before);
    assertEquals(List.of(h.abortMarkerKey()), h.keys(), "no object of the job left, no task record");
    assertEquals(2, abort.of(GET, 200), "the marker, the task record the job abort kept: " + abort);
    assertEquals(1, abort.of(BULK_DELETE), "the attempt's files: " + abort);
    assertEquals(1, abort.of(DELETE), "the task record, which names no other attempt: " + abort);
    assertEquals(4, abort.total(), abort.toString());
  }

  /**
   * Spark interrupts the thread of a task it cancels, then aborts the task on it; the store's client refuses the
   * requests of an interrupted thread (as the AWS SDKs do). The abort still cleans up, and the thread is still
   * interrupted afterwards, for Spark.
   */
  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aLateAttemptAbortedOnItsInterruptedThreadLeavesNothingAndStaysInterrupted(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    h.store.addHook(RequestHook.before(PUT, fileKey(0, 1), abortJob(h, driver)));
    zombie.write(1);
    assertEquals(1, h.outputKeys().size(), "c001 landed after the abort: " + h.keys());
    h.store.addFault(FaultRule.onInterruptedThreads());
    Thread.currentThread().interrupt(); // Spark cancels the task
    try {
      zombie.abort();
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for Spark");
    } finally {
      Thread.interrupted();
    }
    assertEquals(List.of(h.abortMarkerKey()), h.keys(), "no object of the job left, no task record");
    assertEquals(0, h.store.counts().of(GET, 499) + h.store.counts().of(DELETE, 499)
        + h.store.counts().of(BULK_DELETE, 499), "no request refused as interrupted: " + h.store.counts());
  }

  /**
   * The order Spark 4.2 showed: the cancelled task's abort reads the marker before the job abort writes it (none
   * yet), the job abort then reads the task's record while the attempt is still WRITING, and the task abort marks it
   * ABORTED before the job abort comes back to keep it. Nobody else would remove the record: the job abort does.
   */
  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aTaskAbortRacingTheJobAbortLeavesNoTaskRecord(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    CountDownLatch jobReadTheRecord = new CountDownLatch(1);
    CountDownLatch taskAborted = new CountDownLatch(1);
    ExecutorService jobThread = Executors.newSingleThreadExecutor();
    List<Future<?>> jobAbort = new ArrayList<>();
    // the job abort's read of the task record: held until the task abort has finished
    h.store.addHook(RequestHook.after(GET, Pattern.quote(recordKey(h, 0)), () -> {
      jobReadTheRecord.countDown();
      await(taskAborted);
    }));
    // the task abort's marker read (404): then the whole job abort starts, up to its read of the record
    h.store.addHook(RequestHook.after(GET, Pattern.quote(h.abortMarkerKey()), () -> {
      jobAbort.add(jobThread.submit(() -> {
        driver.abortJob(h.job(), JobStatus.State.FAILED);
        return null;
      }));
      await(jobReadTheRecord);
    }));
    try {
      zombie.abort(); // no marker seen: deletes its file, marks its entry ABORTED
      taskAborted.countDown();
      jobAbort.get(0).get(30, TimeUnit.SECONDS);
    } finally {
      taskAborted.countDown();
      jobThread.shutdownNow();
    }
    assertEquals(List.of(h.abortMarkerKey()), h.keys(), "no object of the job left, no task record");
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IOException("the interleaving did not happen within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    }
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aNewDirectoryAfterTheAbortIsDeclaredInTheKeptRecordAndLeavesNothing(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write("day=1", 0, "x");
    driver.abortJob(h.job(), JobStatus.State.FAILED);
    assertEquals(List.of(h.abortMarkerKey(), recordKey(h, 0)), h.keys(), "the record of the writing attempt kept");
    zombie.write("day=1", 1, "a late file in a declared directory");
    zombie.write("day=2", 0, "a late file in a new directory, declared in the kept record");
    assertEquals(2, h.outputKeys().size(), h.keys().toString());
    commitFailsAsAborted(h, zombie, 3);
    assertEquals(List.of(h.abortMarkerKey()), h.keys());
  }

  /**
   * The residual case, closed by the kept task record: the attempt dies right after a late upload, before it could
   * read the marker. The record the job abort kept still declares the directory, so the cleanup command finds the
   * late file.
   */
  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aLateAttemptKilledAfterItsUploadLeavesAFileTheCleanupCommandFinds(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    driver.abortJob(h.job(), JobStatus.State.FAILED);
    String late = zombie.write(1);
    zombie.crash(); // SIGKILL: no task commit, no task abort
    assertEquals(List.of(h.abortMarkerKey(), recordKey(h, 0), late), h.keys());
    Configuration conf = new Configuration(false);
    InMemoryStoreFactory.use(conf);
    try (DirectJobCleaner cleaner = DirectJobCleaner.open(h.output, conf)) {
      assertEquals(List.of(Harness.UUID), cleaner.pendingJobs(), "the kept record lists the job");
      cleaner.clean(Harness.UUID);
    }
    assertEquals(List.of(h.abortMarkerKey()), h.keys(), "the cleanup command probed the declared group again");
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void anAttemptThatStartsWritingAfterTheAbortLeavesNothing(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(2, 0);
    driver.abortJob(h.job(), JobStatus.State.FAILED);
    zombie.write(0);
    zombie.write(1);
    zombie.write(2);
    assertEquals(3, h.outputKeys().size());
    commitFailsAsAborted(h, zombie, 3);
    assertEquals(List.of(h.abortMarkerKey()), h.keys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void anUploadVisibleBeforeTheAbortIsDeletedByTheAbortAndTheAttemptStillFails(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    // c001 is visible, then the job abort runs before the upload's answer returns
    h.store.addHook(RequestHook.after(PUT, fileKey(0, 1), abortJob(h, driver)));
    zombie.write(1);
    assertEquals(List.of(), h.outputKeys(), "the abort probed the declared group and deleted c000 and c001");
    commitFailsAsAborted(h, zombie, 2);
    assertEquals(List.of(h.abortMarkerKey()), h.keys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void anAbortBetweenTheMarkerReadAndTheTaskRecordUpdateLeavesNoFile(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    zombie.write(1);
    // task commit reads the marker (404), then the job abort runs: every upload was visible before the marker, so
    // the abort found them in the record; the task commit then records the attempt in the record the abort kept
    h.store.addHook(RequestHook.after(GET, "job-aborted\\.json$", abortJob(h, driver)));
    zombie.commit();
    assertEquals(List.of(), h.outputKeys(), "the abort deleted both files");
    assertEquals(List.of(h.abortMarkerKey(), recordKey(h, 0)), h.keys(), "bookkeeping only: the marker and the"
        + " committed record, which the cleanup command removes");
    Configuration conf = new Configuration(false);
    InMemoryStoreFactory.use(conf);
    try (DirectJobCleaner cleaner = DirectJobCleaner.open(h.output, conf)) {
      cleaner.clean(Harness.UUID);
    }
    assertEquals(List.of(h.abortMarkerKey()), h.keys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void anAbortAfterTheTaskCommittedFindsItsFilesInTheRecord(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt t = h.attempt(0, 0);
    t.write(0);
    t.write(1);
    t.commit();
    driver.abortJob(h.job(), JobStatus.State.FAILED);
    assertEquals(List.of(h.abortMarkerKey()), h.keys());
  }

  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void taskCommitCostsOneGetOfTheMarkerPerTaskNotPerFile(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    h.setUpJob();
    InMemoryRequestCounts before = h.store.counts();
    Harness.Attempt t = h.attempt(0, 0);
    for (int c = 0; c < 5; c++) {
      t.write(c);
    }
    t.commit();
    InMemoryRequestCounts task = h.store.counts().minus(before);
    assertEquals(1, task.of(GET), "one read of the job-abort marker, a 404: " + task);
    assertEquals(1, task.of(GET, 404), task.toString());
    assertEquals(5 + 2, task.of(PUT), "5 uploads, the declaration and the commit of the task record: " + task);
    assertEquals(0, task.of(HEAD), task.toString());
    assertEquals(8, task.total(), task.toString());
  }

  /**
   * A zombie of a committed job: its task record is gone (job commit deleted it) and no abort marker exists, so its
   * task abort must not delete the keys it wrote, which the committed attempt of its task wrote too.
   */
  @ParameterizedTest(name = "parquet committer: {0}")
  @ValueSource(booleans = {true, false})
  void aZombiesTaskAbortAfterJobCommitKeepsTheCommittedFiles(boolean parquet) throws Exception {
    Harness h = new Harness(parquet);
    PathOutputCommitter driver = h.setUpJob();
    Harness.Attempt zombie = h.attempt(0, 0);
    zombie.write(0);
    Harness.Attempt retry = h.attempt(0, 1);
    String committed = retry.write(0);
    retry.commit();
    driver.commitJob(h.job());
    zombie.abort(); // its commit was denied by Spark's output commit coordinator, or its driver is gone
    assertEquals(List.of(Harness.key("_SUCCESS"), committed), h.keys(), "the committed file stays, no record made");
    assertFalse(h.keys().contains(h.abortMarkerKey()));
  }
}
