package io.objectcommit.store.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.v2.V2ClientFactory;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The SDK v2 client built by {@link V2ClientFactory} from only the settings a user of {@code s3a://} has (a fresh
 * Configuration with Hadoop's defaults, endpoint, region, path style, keys), against a real S3 implementation:
 * put, get, and an exclusive create that the store refuses the second time. And the same with the keys only in
 * the environment of a child JVM ({@link V2ClientChild}), the provider list left at Hadoop's default, and with
 * container credentials from a stub endpoint on 127.0.0.1 (fetched by the SDK v2's own container provider).
 */
@S3IntegrationTest
class V2ClientIT {

  /** What a user has: Hadoop's defaults (core-default.xml), and the s3a settings of the store. */
  static Configuration userConf(S3Endpoint e, boolean withKeys) {
    Configuration c = new Configuration();
    c.set("fs.s3a.endpoint", e.uri().toString());
    c.set("fs.s3a.endpoint.region", e.region());
    c.set("fs.s3a.path.style.access", "true");
    if (withKeys) {
      c.set("fs.s3a.access.key", e.accessKey());
      c.set("fs.s3a.secret.key", e.secretKey());
    }
    return c;
  }

  /**
   * Put, get, exclusive create (refused with 412 once the key exists), each client built from {@code s};
   * returns what was read. The refused create is the last request of its client: with {@code Expect:
   * 100-continue} (S3A's default), LocalStack leaves the pooled connection of a refused upload unusable, and the
   * next request on it fails with a broken pipe (the store's retries absorb that; a bare client does not retry).
   */
  static String putGetExclusive(S3ClientSettings s, String bucket, String key) {
    String fresh = key + "-exclusive";
    String read;
    try (S3Client s3 = V2ClientFactory.create(s)) {
      s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("one"));
      read = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asString(StandardCharsets.UTF_8);
      s3.putObject(exclusive(bucket, fresh), RequestBody.fromString("first"));
      S3Exception refused = assertThrows(S3Exception.class,
          () -> s3.putObject(exclusive(bucket, fresh), RequestBody.fromString("second")));
      assertEquals(412, refused.statusCode());
    }
    try (S3Client s3 = V2ClientFactory.create(s)) {
      assertEquals("first", s3.getObjectAsBytes(b -> b.bucket(bucket).key(fresh))
          .asString(StandardCharsets.UTF_8));
    }
    return read;
  }

  /** If-None-Match: * as a header (SDK 2.24 has no typed field for it). */
  private static PutObjectRequest exclusive(String bucket, String key) {
    return PutObjectRequest.builder().bucket(bucket).key(key)
        .overrideConfiguration(o -> o.putHeader("If-None-Match", "*")).build();
  }

  @Test
  void onlyTheSettingsAUserHas(S3TestBucket bucket) throws Exception {
    S3ClientSettings s = S3ClientSettings.from(userConf(bucket.endpoint(), true), bucket.name());
    assertEquals("one", putGetExclusive(s, bucket.name(), bucket.key("v2/user-settings")));
  }

  @Test
  void keysOnlyInTheEnvironmentOfAChildJvm(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    S3Endpoint e = bucket.endpoint();
    String output = runChild(bucket, dir, "v2/child-env", Map.of("AWS_ACCESS_KEY_ID", e.accessKey(),
        "AWS_SECRET_ACCESS_KEY", e.secretKey()));
    assertTrue(output.contains(V2ClientChild.OK), output);
  }

  @Test
  void containerCredentialsFromALocalEndpointInAChildJvm(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger unauthorized = new AtomicInteger();
    String token = "stub-authorization-token";
    HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    stub.createContext("/credentials", x -> {
      calls.incrementAndGet();
      if (!token.equals(x.getRequestHeaders().getFirst("Authorization"))) {
        unauthorized.incrementAndGet();
      }
      // The JSON of the ECS/EKS container credentials endpoint.
      byte[] body = ("{\"AccessKeyId\":\"" + bucket.endpoint().accessKey() + "\",\"SecretAccessKey\":\""
          + bucket.endpoint().secretKey() + "\",\"Token\":\"stub-session-token\",\"Expiration\":\""
          + Instant.now().plus(6, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS) + "\"}")
          .getBytes(StandardCharsets.UTF_8);
      x.getResponseHeaders().set("Content-Type", "application/json");
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    stub.start();
    try {
      String output = runChild(bucket, dir, "v2/child-container", Map.of("AWS_CONTAINER_CREDENTIALS_FULL_URI",
          "http://127.0.0.1:" + stub.getAddress().getPort() + "/credentials", "AWS_CONTAINER_AUTHORIZATION_TOKEN",
          token));
      assertTrue(output.contains(V2ClientChild.OK), output);
      // LocalStack accepts any credentials: the stub must have been asked for them.
      assertTrue(calls.get() > 0, "the container credentials endpoint was never called");
      assertEquals(0, unauthorized.get(), "requests without the authorization token");
    } finally {
      stub.stop(0);
    }
  }

  /** Runs {@link V2ClientChild} with exactly {@code env} as its AWS variables (metadata service off). */
  private static String runChild(S3TestBucket bucket, Path dir, String key, Map<String, String> env)
      throws Exception {
    S3Endpoint e = bucket.endpoint();
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path"), V2ClientChild.class.getName(),
        e.uri().toString(), e.region(), bucket.name(), bucket.key(key)));
    Path out = dir.resolve("child.out");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
    pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
    pb.environment().putAll(env);
    Process p = pb.start();
    try {
      assertTrue(p.waitFor(3, TimeUnit.MINUTES), "the child JVM did not finish in 3 minutes");
    } finally {
      p.destroyForcibly();
    }
    String output = Files.readString(out);
    assertEquals(0, p.exitValue(), () -> "the child failed:\n" + output);
    return output;
  }
}
