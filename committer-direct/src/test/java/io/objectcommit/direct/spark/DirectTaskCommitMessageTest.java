package io.objectcommit.direct.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.objectcommit.direct.CommittedTaskRecord;
import io.objectcommit.direct.files.AttemptEntry;
import io.objectcommit.direct.files.CommittedFile;
import io.objectcommit.direct.files.DirectTaskRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
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
 * Java by default, Kryo where users set it): the record and Spark's own message come back whole.
 */
class DirectTaskCommitMessageTest {

  private static final String KEY = "warehouse/table/_objectcommit_direct/job-1/tasks/m-000003.json";

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
    assertNull(CommittedTaskRecord.of(KEY, null, record(1)));
    assertNull(CommittedTaskRecord.of(KEY, "", record(1)));
    // about 130 bytes per committed file: 10,000 files are over the 1 MiB bound, 1,000 are not
    assertNull(CommittedTaskRecord.of(KEY, "etag", record(10_000)));
    assertEquals(1_000, CommittedTaskRecord.of(KEY, "etag", record(1_000)).record(KEY).committedFiles.size());
  }

  private static void roundTrip(Serializer serializer) throws IOException {
    SerializerInstance s = serializer.newInstance();
    Object sparks = new Tuple2<>("files Spark moves", "partitions Spark adds"); // the shape of Spark's own message
    CommittedTaskRecord r = CommittedTaskRecord.of(KEY, "0123abcd", record(3));
    ClassTag<Object> tag = ClassTag$.MODULE$.apply(Object.class);
    ByteBuffer bytes = s.serialize(new DirectTaskCommitMessage(sparks, r), tag);

    Object back = s.deserialize(bytes, Thread.currentThread().getContextClassLoader(), tag);

    DirectTaskCommitMessage m = assertInstanceOf(DirectTaskCommitMessage.class, back);
    assertEquals(sparks, ((FileCommitProtocol.TaskCommitMessage) m).obj());
    assertEquals(KEY, m.record().key());
    assertEquals("0123abcd", m.record().etag());
    DirectTaskRecord got = m.record().record(KEY);
    assertEquals("attempt_1", got.committedAttempt);
    assertEquals(3, got.committedFiles.size());
    assertEquals(4, got.taskCount);
  }

  private static DirectTaskRecord record(int files) {
    DirectTaskRecord r = new DirectTaskRecord("job-1", "m-000003");
    r.taskCount = 4;
    AttemptEntry committed = new AttemptEntry("attempt_1");
    committed.state = AttemptEntry.State.COMMITTED;
    r.attempts.add(committed);
    r.committedAttempt = "attempt_1";
    r.committedFiles = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      r.committedFiles.add(new CommittedFile(String.format(
          "warehouse/table/part-%05d-0f8f7c1e-1111-2222-3333-444455556666-c000.snappy.parquet", i), 1_000_000L + i));
    }
    return r;
  }
}
