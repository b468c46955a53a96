package io.objectcommit.store.impl;

import static io.objectcommit.store.impl.FakeS3.fail;
import static io.objectcommit.store.impl.FakeS3.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.SdkClientException;
import com.amazonaws.services.s3.model.PutObjectResult;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.impl.client.EncryptionSettings;
import io.objectcommit.store.impl.v1.V1Calls;
import io.objectcommit.store.statistics.StoreStatisticNames;
import io.objectcommit.store.statistics.StoreStatistics;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.jupiter.api.Test;

/** Throttling and transient retries are counted apart, per operation, by the invoker (scripted client). */
class RetryStatisticsTest {

  private static final int MIB = 1024 * 1024;

  private final FakeS3 s3 = new FakeS3();

  private S3ObjectStore store() {
    StoreOptions o = new StoreOptions(new RetryPolicy(3, 5, 2, 1, 1), 5 * MIB, 5 * MIB);
    return new S3ObjectStore("test-bucket", new V1Calls("test-bucket", s3.client(), EncryptionSettings.none()), o, "bucket 'test-bucket'",
        () -> { }, ms -> { });
  }

  private static PutObjectResult putResult() {
    PutObjectResult r = new PutObjectResult();
    r.setETag("e");
    return r;
  }

  @Test
  void throttlingAndTransientFailuresAreCountedApart() throws Exception {
    s3.on("putObject", fail(503, "SlowDown"), fail(500, "InternalError"), fail(429, "TooManyRequests"),
        fail(new SdkClientException("reset", new SocketTimeoutException("Read timed out"))),
        fail(new SdkClientException("connect", new ConnectException("Connection refused"))),
        value(putResult()));
    S3ObjectStore store = store();
    store.put("k", Payload.of(new byte[1]), WriteCondition.none());
    StoreStatistics.Snapshot.OpValues put = store.statistics().snapshot().get(StoreStatisticNames.OP_PUT);
    assertEquals(5, put.retries);
    assertEquals(2, put.retriesThrottled, "503 SlowDown and 429");
    assertEquals(3, put.retriesTransient, "500, a timeout and a refused connection");
    assertEquals(0, store.statistics().snapshot().get(StoreStatisticNames.OP_GET).retries);
  }

  @Test
  void theCountersAreHadoopIoStatisticsPerOperation() throws Exception {
    s3.on("putObject", fail(503, "SlowDown"), fail(503, "SlowDown"), fail(502, "BadGateway"), value(putResult()));
    S3ObjectStore store = store();
    store.put("k", Payload.of(new byte[1]), WriteCondition.none());
    IOStatistics io = store.getIOStatistics();
    assertEquals(3L, io.counters().get("op_put.retries"));
    assertEquals(2L, io.counters().get("op_put.retries_throttled"));
    assertEquals(1L, io.counters().get("op_put.retries_transient"));
    assertEquals(0L, io.counters().get("op_get.retries_throttled"));
    assertTrue(store.statistics().snapshot().toString().contains("op_put=4 (3 retries, 2 throttled)"),
        store.statistics().snapshot().toString());
  }

  @Test
  void retriesOfAFailedRequestAreCountedUnderItsOperation() {
    s3.on("getObjectMetadata", fail(500, "InternalError"));
    S3ObjectStore store = store();
    assertThrows(PathIOException.class, () -> store.head("k"));
    StoreStatistics.Snapshot.OpValues head = store.statistics().snapshot().get(StoreStatisticNames.OP_HEAD);
    assertEquals(3, head.retriesTransient, "the transient limit");
    assertEquals(0, head.retriesThrottled);
    assertEquals(4, head.failures);
  }

  @Test
  void snapshotsSubtractTheKindsToo() throws Exception {
    s3.on("putObject", fail(503, "SlowDown"), value(putResult()));
    S3ObjectStore store = store();
    StoreStatistics.Snapshot before = store.statistics().snapshot();
    store.put("k", Payload.of(new byte[1]), WriteCondition.none());
    store.put("k", Payload.of(new byte[1]), WriteCondition.none());
    StoreStatistics.Snapshot.OpValues used = store.statistics().snapshot().minus(before)
        .get(StoreStatisticNames.OP_PUT);
    assertEquals(1, used.retriesThrottled);
    assertEquals(0, used.retriesTransient);
    assertEquals(3, used.count);
  }
}
