package io.objectcommit.store.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.AbortedException;
import com.amazonaws.SdkClientException;
import io.objectcommit.store.impl.RetryPolicy.Kind;
import io.objectcommit.store.impl.v1.V1Calls;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private final RetryPolicy policy = new RetryPolicy(3, 5, 2, 100, 1_000);

  @Test
  void classifiesServiceErrors() {
    assertEquals(Kind.THROTTLED, RetryPolicy.classify(V1Calls.failure(FakeS3.serviceError(503, "SlowDown"))));
    assertEquals(Kind.THROTTLED, RetryPolicy.classify(V1Calls.failure(FakeS3.serviceError(400, "Throttling"))));
    assertEquals(Kind.TRANSIENT, RetryPolicy.classify(V1Calls.failure(FakeS3.serviceError(500, "InternalError"))));
    assertEquals(Kind.TRANSIENT, RetryPolicy.classify(V1Calls.failure(FakeS3.serviceError(502, "BadGateway"))));
    assertEquals(Kind.TRANSIENT, RetryPolicy.classify(V1Calls.failure(FakeS3.serviceError(409, "ConditionalRequestConflict"))));
    for (int status : new int[] {400, 403, 404, 409, 412, 416}) {
      assertEquals(Kind.FAIL, RetryPolicy.classify(V1Calls.failure(FakeS3.serviceError(status, "Other"))), "status " + status);
    }
  }

  @Test
  void classifiesClientErrors() {
    assertEquals(Kind.CONNECT, RetryPolicy.classify(V1Calls.failure(new SdkClientException("x", new ConnectException("refused")))));
    assertEquals(Kind.TRANSIENT, RetryPolicy.classify(V1Calls.failure(new SdkClientException("x", new SocketTimeoutException()))));
    assertEquals(Kind.TRANSIENT, RetryPolicy.classify(V1Calls.failure(new SdkClientException("x",
        new SocketException("Connection reset")))));
    assertEquals(Kind.FAIL, RetryPolicy.classify(V1Calls.failure(new SdkClientException("x", new UnknownHostException("nohost")))));
    assertEquals(Kind.FAIL, RetryPolicy.classify(V1Calls.failure(new AbortedException())));
    // Other client-side failures (truncated or unparsable responses) are retried within the transient limit.
    assertEquals(Kind.TRANSIENT, RetryPolicy.classify(V1Calls.failure(new SdkClientException("unmarshalling failed"))));
  }

  @Test
  void limitsArePerKind() {
    assertTrue(policy.shouldRetry(Kind.TRANSIENT, 2));
    assertFalse(policy.shouldRetry(Kind.TRANSIENT, 3));
    assertTrue(policy.shouldRetry(Kind.THROTTLED, 4));
    assertFalse(policy.shouldRetry(Kind.THROTTLED, 5));
    assertTrue(policy.shouldRetry(Kind.CONNECT, 1));
    assertFalse(policy.shouldRetry(Kind.CONNECT, 2));
    assertFalse(policy.shouldRetry(Kind.FAIL, 0));
  }

  @Test
  void backoffDoublesUpToTheCapWithFullJitter() {
    assertEquals(100, policy.backoffMs(0, () -> 0.99999999));
    assertEquals(200, policy.backoffMs(1, () -> 0.99999999));
    assertEquals(800, policy.backoffMs(3, () -> 0.99999999));
    assertEquals(1000, policy.backoffMs(4, () -> 0.99999999));
    assertEquals(1000, policy.backoffMs(40, () -> 0.99999999), "no overflow for large retry counts");
    assertEquals(0, policy.backoffMs(3, () -> 0.0));
    assertEquals(400, policy.backoffMs(3, () -> 0.5));
  }

  @Test
  void totalBackoffIsBounded() {
    assertEquals(100 + 200 + 400, policy.maxTotalBackoffMs(Kind.TRANSIENT));
    assertEquals(100 + 200, policy.maxTotalBackoffMs(Kind.CONNECT));
  }
}
