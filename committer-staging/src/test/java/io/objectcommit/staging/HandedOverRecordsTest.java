package io.objectcommit.staging;

import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.LIST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.CommitterStatistics;
import io.objectcommit.commit.ForeignTaskRecordException;
import io.objectcommit.commit.MissingTaskRecordException;
import io.objectcommit.staging.files.StagingTaskRecord;
import io.objectcommit.staging.impl.JobCommitStage;
import io.objectcommit.staging.impl.TaskCommitStage;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job commit with the task records the commit protocol carried to the driver ({@code StagingCommitProtocol}): one
 * LIST instead of a GET per task when every record was handed over and the store still holds it unchanged; every
 * other case reads the records from the store as before, and fails the same way before anything is visible.
 */
class HandedOverRecordsTest {

  private static final String JOB = "7c2d9e4a-1111-2222-3333-444455556666";

  @TempDir
  File tmp;

  private final StagingJobFixture job = new StagingJobFixture(JOB);

  /** Commits {@code tasks} tasks of {@code files} files each; returns what each carries to the driver, by key. */
  private Map<String, CommittedTaskRecord> commitTasks(int tasks, int files) throws IOException {
    Map<String, CommittedTaskRecord> carried = new LinkedHashMap<>();
    for (int t = 0; t < tasks; t++) {
      Map<String, byte[]> content = new LinkedHashMap<>();
      for (int i = 0; i < files; i++) {
        content.put(job.name(t, i), StagingProtocolTest.content("task " + t + " file " + i));
      }
      TaskCommitStage.Result r = job.commitTask(tmp, t, tasks, 0, content);
      assertNotNull(r.committed(), "the winner carries its record");
      carried.put(r.committed().key(), r.committed());
    }
    return carried;
  }

  @Test
  void theCarriedRecordIsTheOneStored() throws IOException {
    CommittedTaskRecord c = commitTasks(1, 2).values().iterator().next();
    assertEquals(job.layout.taskRecordKey(0), c.key());
    assertEquals(job.store.head(c.key()).orElseThrow().etag(), c.etag());
    StagingTaskRecord r = c.record(StagingTaskRecord.CODEC, c.key());
    assertEquals(StagingTaskRecord.CODEC.load(job.store, c.key()).files.size(), r.files.size());
    assertEquals("attempt_0_0", r.taskAttemptId);
  }

  @Test
  void aCompleteHandOverReplacesTheRecordReadsByOneList() throws IOException {
    Map<String, CommittedTaskRecord> carried = commitTasks(4, 5);
    InMemoryRequestCounts before = job.store.counts();
    job.store.resetCounts();

    JobCommitStage.Summary s = job.commitJob(carried);

    InMemoryRequestCounts c = job.store.counts();
    assertEquals(0, c.of(GET), "no record read: " + c);
    assertEquals(1, c.of(LIST), "the job's records listed once: " + c);
    assertEquals(4, s.get(CommitterStatistics.JOB_RECORDS_HANDED_OVER));
    assertEquals(20, s.get(CommitterStatistics.FILES_COMMITTED));
    assertEquals(20, job.visible().size());
    assertEquals(4, before.of(GET), "task commit: the job-abort marker's GET per task");
    // without the hand-over: the same requests but 4 record GETs for the LIST (StagingProtocolTest)
    assertEquals(20 + 1 + 1 + 1 + 1, c.total(), "20 completes, the LIST, _SUCCESS, the sweep, the records' delete: "
        + c);
  }

  @Test
  void anIncompleteHandOverReadsEveryRecord() throws IOException {
    Map<String, CommittedTaskRecord> carried = commitTasks(4, 1);
    carried.remove(job.layout.taskRecordKey(2)); // a record over the bound, or a task Spark did not report
    job.store.resetCounts();

    JobCommitStage.Summary s = job.commitJob(carried);

    assertEquals(4, job.store.counts().of(GET));
    assertEquals(0, job.store.counts().of(LIST));
    assertEquals(0, s.get(CommitterStatistics.JOB_RECORDS_HANDED_OVER));
    assertEquals(4, job.visible().size());
  }

  @Test
  void aRecordDeletedSinceItsTaskCommittedFailsTheCommitBeforeAnythingIsVisible() throws IOException {
    Map<String, CommittedTaskRecord> carried = commitTasks(3, 1);
    job.store.delete(job.layout.taskRecordKey(1));

    MissingTaskRecordException e = assertThrows(MissingTaskRecordException.class, () -> job.commitJob(carried));

    assertEquals(job.store.pathOf(job.layout.taskRecordKey(1)), e.path());
    assertEquals(List.of(), job.visible());
  }

  @Test
  void aRecordReplacedSinceItsTaskCommittedIsReadAndChecked() throws IOException {
    Map<String, CommittedTaskRecord> carried = commitTasks(2, 1);
    String key = job.layout.taskRecordKey(1);
    StagingTaskRecord r = StagingTaskRecord.CODEC.load(job.store, key);
    StagingTaskRecord foreign = new StagingTaskRecord("other-job", 1, 2, "x", "h", r.files);
    job.store.put(key, Payload.of(StagingTaskRecord.CODEC.toBytes(foreign)), WriteCondition.none());

    assertThrows(ForeignTaskRecordException.class, () -> job.commitJob(carried));

    assertEquals(List.of(), job.visible());
  }

  @Test
  void aLoserCarriesTheWinnersRecordSoThatAWinnerWhoseMessageWasLostNeedsNoRead() throws IOException {
    Map<String, CommittedTaskRecord> carried = commitTasks(2, 1);
    String key = job.layout.taskRecordKey(1);
    CommittedTaskRecord winners = carried.remove(key); // its executor was lost after it committed: no message
    job.store.resetCounts();
    TaskCommitStage.Result loser = job.commitTask(tmp, 1, 2, 1, Map.of("late.parquet",
        StagingProtocolTest.content("late")));
    assertFalse(loser.won());
    assertEquals(1, job.store.counts().of(GET), "the loser reads the winner's record once, as it did for its log");
    assertNotNull(loser.committed(), "the loser carries the winner's record");
    assertEquals(winners.etag(), loser.committed().etag());
    assertEquals(winners.size(), loser.committed().size());
    assertEquals(winners.record(StagingTaskRecord.CODEC, key).taskAttemptId,
        loser.committed().record(StagingTaskRecord.CODEC, key).taskAttemptId);
    carried.put(key, loser.committed());
    job.store.resetCounts();

    JobCommitStage.Summary s = job.commitJob(carried);

    assertEquals(2, s.get(CommitterStatistics.JOB_RECORDS_HANDED_OVER));
    assertEquals(0, job.store.counts().of(GET), "no record read");
    assertEquals(1, job.store.counts().of(LIST));
    assertEquals(List.of(StagingJobFixture.DEST + job.name(0, 0), StagingJobFixture.DEST + job.name(1, 0)),
        job.visible(), "the winner's file, not the loser's");
  }

  @Test
  void anotherJobsRecordIsIgnored() throws IOException {
    Map<String, CommittedTaskRecord> carried = commitTasks(2, 1);

    StagingJobFixture other = new StagingJobFixture("0f0f0f0f-1111-2222-3333-444455556666");
    TaskCommitStage.Result theirs = other.commitTask(tmp, 0, 1, 0, Map.of(other.name(0, 0),
        StagingProtocolTest.content("theirs")));
    carried.put(theirs.committed().key(), theirs.committed());
    job.store.resetCounts();

    JobCommitStage.Summary s = job.commitJob(carried);

    assertEquals(2, s.get(CommitterStatistics.JOB_RECORDS_HANDED_OVER));
    assertEquals(0, job.store.counts().of(GET));
    assertEquals(List.of(StagingJobFixture.DEST + job.name(0, 0), StagingJobFixture.DEST + job.name(1, 0)),
        job.visible());
    assertTrue(job.store.pendingUploads(StagingJobFixture.DEST).isEmpty());
  }
}
