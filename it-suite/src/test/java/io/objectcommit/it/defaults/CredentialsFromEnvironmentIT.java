package io.objectcommit.it.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials that are not in the configuration at all, with {@code fs.s3a.aws.credentials.provider} at Hadoop's
 * default list: a child JVM (the test classpath, {@link DefaultsJob}) gets only the endpoint, region and path
 * style as settings, and its credentials from the environment: the access keys themselves, or the container
 * credentials endpoint ({@code AWS_CONTAINER_CREDENTIALS_FULL_URI}) served by a stub on 127.0.0.1. The parent
 * checks the child's own checks and what it left in the bucket.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class CredentialsFromEnvironmentIT {

  private static List<String> args(S3TestBucket bucket, Path input) {
    List<String> a = new ArrayList<>(List.of(bucket.name(), bucket.prefix(), input.toString()));
    UserSettings.s3a(bucket.endpoint(), false).forEach((k, v) -> a.add(k + "=" + v));
    return a;
  }

  private static void assertJobDone(ChildJvm.Result r, S3TestBucket bucket) throws Exception {
    assertEquals(0, r.exitCode, () -> "the child job failed:\n" + r.output);
    assertTrue(r.summary().contains("DEFAULTS-JOB OK"), r.summary());
    assertEquals(DefaultsJob.FILES, bucket.listKeys("child/direct/").stream().filter(k -> k.endsWith(".parquet"))
        .count(), "direct committer output");
    assertEquals(DefaultsJob.FILES, bucket.listKeys("child/staging/").stream().filter(k -> k.endsWith(".parquet"))
        .count(), "staging committer output");
    assertTrue(UserSettings.committed(bucket.endpoint(), "ckpt://" + bucket.name() + "/" + bucket.prefix()
        + "child/checkpoint", 2), "batch 2 is committed in the checkpoint");
  }

  @Test
  void keysOnlyInTheEnvironment(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    S3Endpoint e = bucket.endpoint();
    Path input = Files.createDirectory(dir.resolve("input"));
    ChildJvm.Result r = ChildJvm.run(args(bucket, input),
        Map.of("AWS_ACCESS_KEY_ID", e.accessKey(), "AWS_SECRET_ACCESS_KEY", e.secretKey()), dir);
    assertJobDone(r, bucket);
  }

  @Test
  void containerCredentialsFromALocalEndpoint(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    AtomicInteger calls = new AtomicInteger();
    List<String> badRequests = new ArrayList<>();
    HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    String token = "stub-authorization-token";
    stub.createContext("/credentials", x -> {
      calls.incrementAndGet();
      if (!token.equals(x.getRequestHeaders().getFirst("Authorization"))) {
        synchronized (badRequests) {
          badRequests.add(x.getRequestMethod() + " " + x.getRequestURI() + " without the authorization token");
        }
      }
      // The JSON the AWS SDK v1 expects from the ECS/EKS container credentials endpoint.
      String json = "{\"AccessKeyId\":\"" + bucket.endpoint().accessKey() + "\",\"SecretAccessKey\":\""
          + bucket.endpoint().secretKey() + "\",\"Token\":\"stub-session-token\",\"Expiration\":\""
          + Instant.now().plus(6, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS) + "\"}";
      byte[] body = json.getBytes(StandardCharsets.UTF_8);
      x.getResponseHeaders().set("Content-Type", "application/json");
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    stub.start();
    try {
      Path input = Files.createDirectory(dir.resolve("input"));
      String uri = "http://127.0.0.1:" + stub.getAddress().getPort() + "/credentials";
      ChildJvm.Result r = ChildJvm.run(args(bucket, input), Map.of("AWS_CONTAINER_CREDENTIALS_FULL_URI", uri,
          "AWS_CONTAINER_AUTHORIZATION_TOKEN", token), dir);
      assertJobDone(r, bucket);
      // LocalStack accepts any credentials: the stub must have been asked for them.
      assertTrue(calls.get() > 0, "the container credentials endpoint was never called");
      assertEquals(List.of(), badRequests);
    } finally {
      stub.stop(0);
    }
  }
}
