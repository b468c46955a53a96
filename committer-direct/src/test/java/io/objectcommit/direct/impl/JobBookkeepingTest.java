package io.objectcommit.direct.impl;

import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.LIST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.direct.files.AttemptEntry;
import io.objectcommit.direct.files.DirectTaskRecord;
import io.objectcommit.store.Parallel;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.files.JsonRecordCodec;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** How job commit and job abort find a job's task records: requests and their overlap. */
class JobBookkeepingTest {

  private static final String JOB = "job-1";
  private static final int THREADS = 8;
  private static final int WINDOW = 10;

  private final InMemoryObjectStore store = InMemoryObjectStore.create("records-bucket");
  private final OutputLocation loc = OutputLocation.of(new Path("s3a://records-bucket/table"));

  @Test
  void recordsThatSayHowManyTasksTheStageHasAreReadInParallelWithOneGetPerTask() throws IOException {
    int tasks = 45;
    List<String> keys = writeRecords(tasks, tasks);
    store.setLatency(Duration.ofMillis(5));
    store.resetCounts();

    Map<String, DirectTaskRecord> found = readAll();

    assertEquals(keys, new ArrayList<>(found.keySet()), "every record, in task order");
    InMemoryRequestCounts c = store.counts();
    assertEquals(tasks + 2, c.of(GET), "one GET per task, the 404 after the last map task, the 404 of r-000000: "
        + c);
    assertEquals(1, c.of(LIST), "the one LIST for records after a gap: " + c);
    assertEquals(tasks + 3, c.total(), c.toString());
    assertTrue(store.maxConcurrentRequests() > 1, "records read at once, found at most "
        + store.maxConcurrentRequests() + " request(s) in flight");
    assertTrue(store.maxConcurrentRequests() <= THREADS, "at most one request per thread in flight, found "
        + store.maxConcurrentRequests());
  }

  @Test
  void recordsWithoutATaskCountAreReadOneAfterAnotherWithTheSameRequests() throws IOException {
    int tasks = 12;
    List<String> keys = writeRecords(tasks, 0); // a version 1 record, or a task outside Spark
    store.resetCounts();

    Map<String, DirectTaskRecord> found = readAll();

    assertEquals(keys, new ArrayList<>(found.keySet()));
    InMemoryRequestCounts c = store.counts();
    assertEquals(tasks + 2, c.of(GET), c.toString());
    assertEquals(tasks + 3, c.total(), c.toString());
    assertEquals(1, store.maxConcurrentRequests(), "one request at a time");
  }

  @Test
  void aMissingTaskInTheCountedRangeStopsTheProbeAndTheListingFindsTheRecordsAfterIt() throws IOException {
    int tasks = 30;
    List<String> keys = writeRecords(tasks, tasks);
    String missing = keys.remove(13);
    store.delete(missing);
    store.resetCounts();

    Map<String, DirectTaskRecord> found = readAll();

    assertEquals(keys, new ArrayList<>(found.keySet()), "every record but task 13's, in task order");
    InMemoryRequestCounts c = store.counts();
    // record 0, windows 1-10 and 11-20 (the gap in the second stops the probe), r-000000's 404, then the 9 records
    // after the gap window that the LIST finds
    assertEquals(1 + 20 + 1 + 9, c.of(GET), c.toString());
    assertEquals(1, c.of(LIST), c.toString());
  }

  @Test
  void handedOverRecordsCostOneListAndNoRead() throws IOException {
    int tasks = 45;
    List<String> keys = writeRecords(tasks, tasks);
    Map<String, CommittedTaskRecord> handedOver = handOver(keys);
    store.resetCounts();

    Map<String, DirectTaskRecord> found = readHandedOver(handedOver);

    assertEquals(keys, new ArrayList<>(found.keySet()), "every record, in task order");
    InMemoryRequestCounts c = store.counts();
    assertEquals(1, c.of(LIST), "one LIST of the job's bookkeeping shows every record's ETag: " + c);
    assertEquals(1, c.total(), "nothing read: " + c);
    assertEquals(tasks, found.get(keys.get(7)).taskCount);
  }

  @Test
  void aRecordChangedSinceItsHandOverIsReadFromTheStore() throws IOException {
    int tasks = 10;
    List<String> keys = writeRecords(tasks, tasks);
    Map<String, CommittedTaskRecord> handedOver = handOver(keys);
    // another attempt of task 3 changed the record after the committed attempt wrote it (a zombie's entry)
    JsonRecordCodec.Loaded<DirectTaskRecord> l = DirectTaskRecord.CODEC.loadWithEtag(store, keys.get(3));
    DirectTaskRecord changed = l.record();
    changed.attempts.add(new AttemptEntry("attempt_zombie")); // WRITING
    DirectTaskRecord.CODEC.save(store, keys.get(3), changed, WriteCondition.ifMatch(l.info().etag()));
    store.resetCounts();

    Map<String, DirectTaskRecord> found = readHandedOver(handedOver);

    assertEquals(keys, new ArrayList<>(found.keySet()));
    assertEquals(1, found.get(keys.get(3)).attempts.size(), "the stored record, not the handed-over copy");
    assertEquals(0, found.get(keys.get(4)).attempts.size());
    InMemoryRequestCounts c = store.counts();
    assertEquals(1, c.of(LIST), c.toString());
    assertEquals(1, c.of(GET), "the changed record only: " + c);
    assertEquals(2, c.total(), c.toString());
  }

  @Test
  void aRecordNobodyHandedOverAndOneTheListingDoesNotShowAreRead() throws IOException {
    int tasks = 10;
    List<String> keys = writeRecords(tasks, tasks);
    Map<String, CommittedTaskRecord> handedOver = handOver(keys);
    // a task of another type that never committed, and a record deleted after its hand-over
    String reduce = loc.taskRecordKey(JOB, OutputLocation.taskName('r', 0));
    DirectTaskRecord.CODEC.save(store, reduce, new DirectTaskRecord(JOB, "r-000000"), WriteCondition.ifAbsent());
    store.delete(keys.get(9));
    store.resetCounts();

    Map<String, DirectTaskRecord> found = readHandedOver(handedOver);

    List<String> expected = new ArrayList<>(keys.subList(0, 9));
    expected.add(reduce);
    assertEquals(expected, new ArrayList<>(found.keySet()), "the unlisted record is gone, the other one found");
    InMemoryRequestCounts c = store.counts();
    assertEquals(1, c.of(LIST), c.toString());
    assertEquals(2, c.of(GET), "the record nobody handed over, the one the listing did not show (a 404): " + c);
    assertEquals(3, c.total(), c.toString());
  }

  @Test
  void aRecordOfAnotherJobHandedOverIsIgnored() throws IOException {
    List<String> keys = writeRecords(5, 5);
    Map<String, CommittedTaskRecord> handedOver = handOver(keys);
    String other = loc.taskRecordKey("job-2", OutputLocation.taskName('m', 5));
    DirectTaskRecord r = new DirectTaskRecord("job-2", "m-000005");
    r.taskCount = 5;
    DirectTaskRecord.CODEC.save(store, other, r, WriteCondition.ifAbsent());
    handedOver.put(other, CommittedTaskRecord.of(other, "etag-of-job-2", DirectTaskRecord.CODEC.toBytes(r)));
    store.resetCounts();

    assertEquals(keys, new ArrayList<>(readHandedOver(handedOver).keySet()), "this job's records only");
    assertEquals(1, store.counts().total(), "the LIST: " + store.counts());
  }

  @Test
  void anIncompleteHandOverIsReadAsIfNothingWereHandedOver() throws IOException {
    int tasks = 12;
    List<String> keys = writeRecords(tasks, tasks);
    Map<String, CommittedTaskRecord> handedOver = handOver(keys.subList(0, 11)); // task 11's record not carried
    store.resetCounts();

    Map<String, DirectTaskRecord> found = readHandedOver(handedOver);

    assertEquals(keys, new ArrayList<>(found.keySet()));
    InMemoryRequestCounts c = store.counts();
    assertEquals(tasks + 2, c.of(GET), "as without a hand-over: one GET per task and the two 404s: " + c);
    assertEquals(1, c.of(LIST), c.toString());
  }

  @Test
  void recordsThatDoNotSayHowManyTasksTheStageHasAreReadAsIfNothingWereHandedOver() throws IOException {
    int tasks = 6;
    List<String> keys = writeRecords(tasks, 0); // outside Spark: the stage's size is not known
    Map<String, CommittedTaskRecord> handedOver = handOver(keys);
    store.resetCounts();

    assertEquals(keys, new ArrayList<>(readHandedOver(handedOver).keySet()));
    assertEquals(tasks + 2, store.counts().of(GET), store.counts().toString());
  }

  /** What the tasks' attempts would hand over: each record as stored, with its ETag. */
  private Map<String, CommittedTaskRecord> handOver(List<String> keys) throws IOException {
    Map<String, CommittedTaskRecord> m = new LinkedHashMap<>();
    for (String key : keys) {
      JsonRecordCodec.Loaded<DirectTaskRecord> l = DirectTaskRecord.CODEC.loadWithEtag(store, key);
      m.put(key, CommittedTaskRecord.of(key, l.info().etag(), DirectTaskRecord.CODEC.toBytes(l.record())));
    }
    return m;
  }

  private Map<String, DirectTaskRecord> readHandedOver(Map<String, CommittedTaskRecord> handedOver)
      throws IOException {
    try (Parallel parallel = new Parallel("test-job-commit", THREADS)) {
      return JobBookkeeping.withHandedOver(store, loc, JOB, parallel, WINDOW, handedOver);
    }
  }

  private Map<String, DirectTaskRecord> readAll() throws IOException {
    try (Parallel parallel = new Parallel("test-job-commit", THREADS)) {
      return JobBookkeeping.all(store, loc, JOB, parallel, WINDOW);
    }
  }

  /** Committed records of map tasks 0 to {@code tasks - 1}, each saying {@code taskCount}; their keys. */
  private List<String> writeRecords(int tasks, int taskCount) throws IOException {
    List<String> keys = new ArrayList<>();
    for (int n = 0; n < tasks; n++) {
      String task = OutputLocation.taskName('m', n);
      DirectTaskRecord r = new DirectTaskRecord(JOB, task);
      r.taskCount = taskCount;
      String key = loc.taskRecordKey(JOB, task);
      DirectTaskRecord.CODEC.save(store, key, r, WriteCondition.ifAbsent());
      keys.add(key);
    }
    return keys;
  }
}
