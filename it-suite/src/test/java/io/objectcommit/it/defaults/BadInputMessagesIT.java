package io.objectcommit.it.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.direct.impl.OutputLocation;
import io.objectcommit.staging.StagingOptions;
import io.objectcommit.staging.impl.JobLayout;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.StubEndpoints;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The first line of the error a user sees for each bad input, asserted against the table "When something is
 * wrong: the first line of each error" in docs/user-guide.md, so that the table cannot go stale: each test
 * reads its row by the case name in the first column. Variable parts are written in the table as
 * {@code <bucket>}, {@code <endpoint>}, {@code <port>} and {@code <uuid>}. The S3 cases go through what a
 * streaming user does first: opening a {@code ckpt://} path with the settings of the quick start.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class BadInputMessagesIT {

  /** The user guide of the source tree: the first docs/user-guide.md above the module (it-tests, spark-4.x/it-tests). */
  private static final java.nio.file.Path GUIDE = guide();
  private static final String SECTION = "## When something is wrong: the first line of each error";
  private static final String MISSING_BUCKET = "objectcommit-no-such-bucket";
  private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

  private static Map<String, String> documented;
  private static String metadataProperty;

  private static java.nio.file.Path guide() {
    java.nio.file.Path start = java.nio.file.Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (java.nio.file.Path d = start; d != null; d = d.getParent()) {
      java.nio.file.Path g = d.resolve("docs").resolve("user-guide.md");
      if (Files.isRegularFile(g)) {
        return g;
      }
    }
    throw new IllegalStateException("no docs/user-guide.md in " + start + " or above it");
  }

  @BeforeAll
  static void readTheTable() throws IOException {
    documented = table(Files.readAllLines(GUIDE, StandardCharsets.UTF_8));
    // The "no credentials" case must not ask the EC2 metadata service (no network but loopback in tests).
    metadataProperty = System.setProperty("com.amazonaws.sdk.disableEc2Metadata", "true");
  }

  @AfterAll
  static void restore() {
    if (metadataProperty == null) {
      System.clearProperty("com.amazonaws.sdk.disableEc2Metadata");
    } else {
      System.setProperty("com.amazonaws.sdk.disableEc2Metadata", metadataProperty);
    }
  }

  /** Case name (first column) to first line (second column, without its backticks), of the section's table. */
  static Map<String, String> table(List<String> lines) {
    Map<String, String> m = new LinkedHashMap<>();
    boolean in = false;
    for (String line : lines) {
      if (line.startsWith("## ")) {
        in = line.equals(SECTION);
        continue;
      }
      if (!in || !line.startsWith("| ") || line.startsWith("| case") || line.startsWith("|---")) {
        continue;
      }
      String[] cells = line.split(" \\| ");
      String name = cells[0].substring(2).trim();
      String first = cells[1].trim();
      while (first.startsWith("`") && first.endsWith("`") && first.length() > 1) {
        first = first.substring(1, first.length() - 1).trim();
      }
      m.put(name, first);
    }
    return m;
  }

  /** The first line of the error as a stack trace shows it, variable parts replaced by placeholders. */
  private static String firstLine(Throwable t, String bucket, String endpoint) {
    String s = t.toString();
    int nl = s.indexOf('\n');
    s = nl < 0 ? s : s.substring(0, nl);
    if (endpoint != null) {
      s = s.replace(endpoint, "<endpoint>");
    }
    if (bucket != null) {
      s = s.replace(bucket, "<bucket>");
    }
    // What the instance metadata service says depends on the machine (the test disables it).
    s = s.replaceAll("and (the EC2 instance metadata service is disabled by [\\w.]+|no EC2 instance credentials"
        + " \\(.*?\\))(?= on bucket)", "and <no instance credentials>");
    return s.replaceAll(UUID, "<uuid>").replaceAll("127\\.0\\.0\\.1:[0-9]+", "127.0.0.1:<port>");
  }

  private static void check(String name, Throwable t, String bucket, String endpoint) {
    String doc = documented.get(name);
    assertNotNull(doc, "no row '" + name + "' in the table of " + GUIDE + " (" + SECTION + ")");
    assertEquals(doc, firstLine(t, bucket, endpoint), "first line of the error for: " + name);
  }

  /** What a streaming user has: the endpoint settings, and ckpt:// enabled. */
  private static Configuration conf(String endpoint, boolean keys, String... kv) {
    Configuration c = new Configuration();
    c.set("fs.s3a.endpoint", endpoint);
    c.set("fs.s3a.endpoint.region", "us-east-1");
    c.set("fs.s3a.path.style.access", "true");
    if (keys) {
      c.set("fs.s3a.access.key", "test");
      c.set("fs.s3a.secret.key", "test");
    }
    c.set("fs.ckpt.impl", "io.objectcommit.checkpoint.CheckpointFileSystem");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  /** Opens {@code ckpt://<bucket>/query/checkpoint} and creates the directory, as a query's start does. */
  private static Executable openCheckpoint(String bucket, Configuration conf) {
    return () -> {
      Path p = new Path("ckpt://" + bucket + "/query/checkpoint");
      try (FileSystem fs = FileSystem.newInstance(p.toUri(), conf)) {
        fs.mkdirs(p);
      }
    };
  }

  private static Throwable fails(Executable e) {
    return assertThrows(Throwable.class, e);
  }

  @Test
  void missingBucket(S3Endpoint s3) {
    String endpoint = s3.uri().toString();
    check("missing bucket", fails(openCheckpoint(MISSING_BUCKET, conf(endpoint, true))), MISSING_BUCKET,
        endpoint);
  }

  @Test
  void refusedCredentials() throws IOException {
    try (StubEndpoints.RefusingS3 refusing = StubEndpoints.refusingCredentials()) {
      String endpoint = refusing.url();
      check("refused credentials", fails(openCheckpoint("my-bucket", conf(endpoint, true))), "my-bucket",
          endpoint);
    }
  }

  @Test
  void noCredentials(S3Endpoint s3) {
    for (String v : new String[] {"AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"}) {
      assumeTrue(System.getenv(v) == null, v + " is set in this test's environment");
    }
    String endpoint = s3.uri().toString();
    check("no credentials", fails(openCheckpoint("my-bucket", conf(endpoint, false))), "my-bucket", endpoint);
  }

  @Test
  void endpointDown() throws IOException {
    String endpoint = StubEndpoints.closedLoopbackUrl();
    check("endpoint down", fails(openCheckpoint("my-bucket", conf(endpoint, true))), "my-bucket", endpoint);
  }

  @Test
  void unknownHost() {
    String endpoint = "http://s3.no-such-host.invalid:9000";
    check("unknown host", fails(openCheckpoint("my-bucket", conf(endpoint, true))), "my-bucket", endpoint);
  }

  @Test
  void typoInConditionalWrites(S3Endpoint s3) {
    String endpoint = s3.uri().toString();
    check("typo in fs.objectcommit.conditional-writes", fails(openCheckpoint("my-bucket", conf(endpoint, true,
        "fs.objectcommit.conditional-writes", "detetc"))), "my-bucket", endpoint);
  }

  @Test
  void typoInCheckpointBackend(S3Endpoint s3) {
    String endpoint = s3.uri().toString();
    check("typo in fs.objectcommit.checkpoint.backend", fails(openCheckpoint("my-bucket", conf(endpoint, true,
        "fs.objectcommit.checkpoint.backend", "s4"))), "my-bucket", endpoint);
  }

  @Test
  void typoInStagingCommitter() {
    Configuration c = new Configuration(false);
    c.set("fs.objectcommit.staging.committer", "partitoned");
    check("typo in fs.objectcommit.staging.committer", fails(() -> StagingOptions.from(c, "my-bucket", null)),
        "my-bucket", null);
  }

  @Test
  void typoInStagingConflictMode() {
    Configuration c = new Configuration(false);
    c.set("fs.objectcommit.staging.conflict-mode", "apend");
    check("typo in fs.objectcommit.staging.conflict-mode", fails(() -> StagingOptions.from(c, "my-bucket", null)),
        "my-bucket", null);
  }

  @Test
  void missingCheckpointFileSystemImplementation() {
    Configuration c = new Configuration();
    check("missing fs.ckpt.impl", fails(() -> new Path("ckpt://my-bucket/query/checkpoint")
        .getFileSystem(c)), "my-bucket", null);
  }

  @Test
  void wrongOutputSchemeForTheDirectCommitter() {
    check("wrong output scheme (direct committer)",
        fails(() -> OutputLocation.of(new Path("hdfs://namenode/warehouse/table"))), null, null);
  }

  @Test
  void wrongOutputSchemeForTheStagingCommitter() {
    check("wrong output scheme (staging committer)", fails(() -> JobLayout.of(
        new Path("hdfs://namenode/warehouse/table"), "job-1")), null, null);
  }

  @Test
  void everyDocumentedRowIsTested() {
    assertEquals(List.of("missing bucket", "refused credentials", "no credentials", "endpoint down",
        "unknown host", "typo in fs.objectcommit.conditional-writes", "typo in fs.objectcommit.checkpoint.backend",
        "typo in fs.objectcommit.staging.committer", "typo in fs.objectcommit.staging.conflict-mode",
        "missing fs.ckpt.impl", "wrong output scheme (direct committer)",
        "wrong output scheme (staging committer)"), List.copyOf(documented.keySet()));
  }
}
