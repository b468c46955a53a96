package io.objectcommit.commit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommittedTaskRecord;
import io.objectcommit.commit.TaskRecordHandOver;
import io.objectcommit.commit.files.SuccessData;
import io.objectcommit.store.files.CorruptRecordException;
import io.objectcommit.store.files.JsonRecordCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.hadoop.mapred.FileOutputCommitter;
import org.apache.spark.SparkConf;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.serializer.JavaSerializer;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The task commit message travels from the task to the driver through Spark's serializer ({@code spark.serializer}:
 * Java by default, Kryo where users set it): the record and Spark's own message come back whole; a protocol carries
 * a record only from one of our committers and hands it only to one. (Any record type rides the same way; the
 * {@code _SUCCESS} record stands in for the committers' task records here.)
 */
class TaskRecordCommitMessageTest {

  private static final String KEY = "warehouse/table/_objectcommit_direct/job-1/tasks/m-000003.json";
  private static final Object SPARKS = new Tuple2<>("files Spark moves", "partitions Spark adds");
  private static final OptionalInt TASKS = OptionalInt.of(200);
  private static final long BUDGET = TaskRecordCommitMessage.DEFAULT_MAX_RESULT_SIZE;

  @Test
  void theRecordAndSparksMessageSurviveJavaSerialisation() throws IOException {
    roundTrip(new JavaSerializer(new SparkConf(false)));
  }

  @Test
  void theRecordAndSparksMessageSurviveKryoSerialisation() throws IOException {
    roundTrip(new KryoSerializer(new SparkConf(false)));
  }

  @Test
  void aRecordWithoutAnEtagOrOverTheBoundIsNotCarried() throws IOException {
    byte[] json = SuccessData.CODEC.toBytes(record(1));
    assertNull(CommittedTaskRecord.of(KEY, null, json));
    assertNull(CommittedTaskRecord.of(KEY, "", json));
    assertNull(CommittedTaskRecord.of(KEY, "etag", new byte[CommittedTaskRecord.MAX_BYTES + 1]));
    assertEquals(1, CommittedTaskRecord.of(KEY, "etag", json).record(SuccessData.CODEC, KEY).getFilenames().size());
  }

  @Test
  void aRecordParsedWithAnotherRecordTypesCodecIsCorrupt() throws IOException {
    CommittedTaskRecord r = CommittedTaskRecord.of(KEY, "etag", SuccessData.CODEC.toBytes(record(1)));
    JsonRecordCodec<SuccessData> other = new JsonRecordCodec<>(SuccessData.class, "objectcommit/test/other", 1, 1);
    assertThrows(CorruptRecordException.class, () -> r.record(other, KEY));
  }

  @Test
  void onlyOurCommittersCarryAndReceiveRecords() throws IOException {
    FileCommitProtocol.TaskCommitMessage sparks = new FileCommitProtocol.TaskCommitMessage(SPARKS);
    assertSame(sparks, TaskRecordCommitMessage.carry(sparks, new FileOutputCommitter(), TASKS, BUDGET), "not one of ours");
    HandingOver task = new HandingOver(null);
    assertSame(sparks, TaskRecordCommitMessage.carry(sparks, task, TASKS, BUDGET), "nothing to carry");

    CommittedTaskRecord r = CommittedTaskRecord.of(KEY, "0123abcd", SuccessData.CODEC.toBytes(record(2)));
    FileCommitProtocol.TaskCommitMessage carried = TaskRecordCommitMessage.carry(sparks, new HandingOver(r), TASKS, BUDGET);
    assertEquals(SPARKS, carried.obj());
    HandingOver driver = new HandingOver(null);
    TaskRecordCommitMessage.deliver(sparks, driver);
    TaskRecordCommitMessage.deliver(carried, new FileOutputCommitter());
    assertEquals(List.of(), driver.received);
    TaskRecordCommitMessage.deliver(carried, driver);
    assertEquals(List.of(r), driver.received);
  }

  @Test
  void recordsTakeAtMostAQuarterOfSparksResultBudgetTogether() {
    long quarter = BUDGET / 4;
    assertTrue(TaskRecordCommitMessage.withinResultBudget(quarter / 200, TASKS, BUDGET));
    assertFalse(TaskRecordCommitMessage.withinResultBudget(quarter / 200 + 1, TASKS, BUDGET));
    // 10,000 tasks of the default 1g: about 26 KB each (a direct committer's task of 200 files)
    assertTrue(TaskRecordCommitMessage.withinResultBudget(26_000, OptionalInt.of(10_000), BUDGET));
    assertFalse(TaskRecordCommitMessage.withinResultBudget(27_000, OptionalInt.of(10_000), BUDGET));
    assertTrue(TaskRecordCommitMessage.withinResultBudget(1 << 20, OptionalInt.of(10_000), 0), "0: no limit");
    assertFalse(TaskRecordCommitMessage.withinResultBudget(1, OptionalInt.empty(), BUDGET), "task count unknown");

    CommittedTaskRecord r = CommittedTaskRecord.of(KEY, "etag", new byte[1_000]);
    FileCommitProtocol.TaskCommitMessage sparks = new FileCommitProtocol.TaskCommitMessage(SPARKS);
    assertSame(sparks, TaskRecordCommitMessage.carry(sparks, new HandingOver(r), OptionalInt.of(1_000), 3_999_999));
    assertInstanceOf(TaskRecordCommitMessage.class,
        TaskRecordCommitMessage.carry(sparks, new HandingOver(r), OptionalInt.of(1_000), 4_000_000));
  }

  private static void roundTrip(Serializer serializer) throws IOException {
    SerializerInstance s = serializer.newInstance();
    CommittedTaskRecord r = CommittedTaskRecord.of(KEY, "0123abcd", SuccessData.CODEC.toBytes(record(3)));
    ClassTag<Object> tag = ClassTag$.MODULE$.apply(Object.class);
    ByteBuffer bytes = s.serialize(TaskRecordCommitMessage.carry(new FileCommitProtocol.TaskCommitMessage(SPARKS),
        new HandingOver(r), TASKS, BUDGET), tag);

    Object back = s.deserialize(bytes, Thread.currentThread().getContextClassLoader(), tag);

    TaskRecordCommitMessage m = assertInstanceOf(TaskRecordCommitMessage.class, back);
    assertEquals(SPARKS, ((FileCommitProtocol.TaskCommitMessage) m).obj());
    assertEquals(KEY, m.record().key());
    assertEquals("0123abcd", m.record().etag());
    SuccessData got = m.record().record(SuccessData.CODEC, KEY);
    assertEquals("job-1", got.getJobId());
    assertEquals(3, got.getFilenames().size());
  }

  private static SuccessData record(int files) {
    SuccessData r = new SuccessData();
    r.setCommitter("test");
    r.setJobId("job-1");
    r.setTimestamp(1L);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      names.add(String.format("warehouse/table/part-%05d-c000.snappy.parquet", i));
    }
    r.setFilenames(names);
    return r;
  }

  /** One of ours (on Hadoop's committer of the old API, whose methods it never calls): carries {@code committed}. */
  private static final class HandingOver extends FileOutputCommitter implements TaskRecordHandOver {
    private final CommittedTaskRecord committed;
    final List<CommittedTaskRecord> received = new ArrayList<>();

    HandingOver(CommittedTaskRecord committed) {
      this.committed = committed;
    }

    @Override
    public CommittedTaskRecord committedTaskRecord() {
      return committed;
    }

    @Override
    public void handOver(CommittedTaskRecord record) {
      received.add(record);
    }
  }
}
