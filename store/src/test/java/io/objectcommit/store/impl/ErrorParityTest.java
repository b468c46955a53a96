package io.objectcommit.store.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.AbortedException;
import com.amazonaws.SdkClientException;
import com.amazonaws.services.s3.model.AmazonS3Exception;
import io.objectcommit.store.impl.v1.V1Calls;
import io.objectcommit.store.impl.v1.V1NoCredentialsException;
import io.objectcommit.store.impl.v2.V2Calls;
import io.objectcommit.store.impl.v2.V2NoCredentialsException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Components never see which SDK is underneath: the same failure from SDK v1 and SDK v2 becomes the same
 * {@link RequestFailure}, the same retry decision and the same exception (type and message).
 */
class ErrorParityTest {

  private static final ErrorTranslation ERRORS = new ErrorTranslation("bucket 'b' at endpoint http://h:1");

  private static AmazonS3Exception v1Answer(int status, String code) {
    AmazonS3Exception e = new AmazonS3Exception("the message of " + code);
    e.setStatusCode(status);
    e.setErrorCode(code);
    e.setRequestId("req-1");
    return e;
  }

  private static S3Exception v2Answer(int status, String code) {
    return (S3Exception) S3Exception.builder().statusCode(status).requestId("req-1")
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("the message of " + code).build())
        .message("the message of " + code).build();
  }

  private static void assertSame(RequestFailure v1, RequestFailure v2) {
    assertEquals(v1.status(), v2.status());
    assertEquals(v1.errorCode(), v2.errorCode());
    assertEquals(v1.network(), v2.network());
    assertEquals(RetryPolicy.classify(v1), RetryPolicy.classify(v2));
    IOException t1 = ERRORS.translate("put", "s3://b/k", v1, 2);
    IOException t2 = ERRORS.translate("put", "s3://b/k", v2, 2);
    assertEquals(t1.getClass(), t2.getClass());
    assertEquals(t1.getMessage(), t2.getMessage());
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"404, NoSuchKey", "404, NoSuchBucket", "404, NoSuchUpload", "403, AccessDenied",
      "403, InvalidAccessKeyId", "412, PreconditionFailed", "409, ConditionalRequestConflict",
      "409, OperationAborted", "503, SlowDown", "500, InternalError", "400, InvalidArgument", "301, PermanentRedirect"})
  void errorAnswers(int status, String code) {
    assertSame(V1Calls.failure(v1Answer(status, code)), V2Calls.failure(v2Answer(status, code)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"refused", "unknown host", "reset", "timeout"})
  void networkProblems(String what) {
    Supplier<Exception> cause = () -> {
      switch (what) {
        case "refused":
          return new ConnectException("Connection refused");
        case "unknown host":
          return new UnknownHostException("nohost.invalid");
        case "reset":
          return new SocketException("Connection reset");
        default:
          return new SocketTimeoutException("Read timed out");
      }
    };
    String message = "Unable to execute HTTP request: " + cause.get().getMessage();
    RequestFailure v1 = V1Calls.failure(new SdkClientException(message, cause.get()));
    RequestFailure v2 = V2Calls.failure(software.amazon.awssdk.core.exception.SdkClientException.builder()
        .message(message).cause(cause.get()).build());
    assertSame(v1, v2);
  }

  /** What each SDK really says (v2 words an unknown host its own way): the error a user sees is still the same. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "unknown host|Received an UnknownHostException when attempting to interact with a service. See cause for the"
          + " exact endpoint that is failing to resolve.",
      "refused|Unable to execute HTTP request: Connect to 127.0.0.1:1 [/127.0.0.1] failed: Connection refused"})
  void networkProblemsAsEachSdkWordsThem(String what, String v2Message) {
    Exception root = "refused".equals(what) ? new ConnectException(
        "Connect to 127.0.0.1:1 [/127.0.0.1] failed: Connection refused") : new UnknownHostException(
        "nohost.invalid: Name or service not known");
    RequestFailure v1 = V1Calls.failure(new SdkClientException("Unable to execute HTTP request: "
        + root.getMessage(), root));
    RequestFailure v2 = V2Calls.failure(software.amazon.awssdk.core.exception.SdkClientException.builder()
        .message(v2Message).cause(root).build());
    assertSame(v1, v2);
    assertEquals(root.getMessage(), v1.getMessage(), "the network exception's own words");
    IOException seen = ERRORS.translate("put", "s3://b/k", v2, 0);
    assertEquals(v2, seen.getCause(), "the SDK's failure stays the cause");
  }

  @Test
  void interruption() {
    assertSame(V1Calls.failure(new AbortedException()),
        V2Calls.failure(software.amazon.awssdk.core.exception.AbortedException.builder().build()));
  }

  @Test
  void noCredentials() {
    String message = "no credentials: fs.s3a.access.key and fs.s3a.secret.key are not set";
    RequestFailure v1 = V1Calls.failure(new V1NoCredentialsException(message));
    RequestFailure v2 = V2Calls.failure(V2NoCredentialsException.create(message, null));
    assertEquals(RequestFailure.Network.NO_CREDENTIALS, v2.network());
    assertSame(v1, v2);
  }
}
