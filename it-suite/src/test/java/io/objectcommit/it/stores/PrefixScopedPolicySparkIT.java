package io.objectcommit.it.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.direct.DirectCommitters;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.StagingCommitters;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.testsupport.MotoIam;
import io.objectcommit.testsupport.PlainS3;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.TestTags;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.util.VersionInfo;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Every component on a bucket where the job's credentials may use only {@code team-a/} (moto with its IAM
 * enforcement on, {@link MotoIam#prefixPolicyForMoto}; what moto models and where it differs from AWS:
 * {@code MotoIamIT}), with the settings a user has: each works end to end there, as stock S3A does, with the store
 * guarantee check writing under the component's own path with the job's own permissions; and where even the
 * component's own path is outside the policy, the job fails with an {@link ActionDeniedException} naming the key
 * and the IAM action, not the credentials. A committer is refused by S3A itself, on the driver, before it runs,
 * where the job may not even read the destination (stock S3A's refusal, the first test); the committers' refusals
 * are shown with a job that may read the whole bucket and write only its prefix.
 *
 * <p>On the Spark 4 lines only (S3A and our store on the AWS SDK v2): moto's IAM mode refuses SDK v1's signatures.
 * Each test has a server of its own (a new endpoint, so the JVM's verdicts start empty), and runs the refused job
 * first: a check that cannot run is not remembered, so the allowed job after it checks again, under its own path.
 */
@Tag(TestTags.COMPONENT)
@Tag(TestTags.AWS_SDK_V2)
class PrefixScopedPolicySparkIT {

  private static final String BUCKET = "lake";
  private static final long ROWS = 2_000;
  /** A job that may use the objects of {@code team-a/} only. */
  private static final String TEAM_A = "team-a";
  /** A job that may also read (GET, LIST) the whole bucket: its writes elsewhere reach the committer. */
  private static final String READER = "reader";

  private MotoIam moto;
  private PlainS3 admin;

  @BeforeEach
  void start(TestInfo test) throws Exception {
    String[] v = VersionInfo.getVersion().split("\\.");
    assumeTrue(Integer.parseInt(v[0]) > 3 || Integer.parseInt(v[1]) >= 4,
        "S3A on the AWS SDK v2 (Hadoop 3.4+, the Spark 4 lines): moto's IAM mode refuses SDK v1's signatures");
    String teamA = MotoIam.prefixPolicyForMoto(BUCKET, "team-a/");
    String reader = MotoIam.plusStatement(teamA, "{\"Sid\":\"ReadTheWholeBucket\",\"Effect\":\"Allow\","
        + "\"Action\":[\"s3:GetObject\",\"s3:ListBucket\"],"
        + "\"Resource\":[\"arn:aws:s3:::" + BUCKET + "\",\"arn:aws:s3:::" + BUCKET + "/*\"]}");
    moto = MotoIam.start(S3Endpoints.workDir().resolve("prefix-scoped-spark"), BUCKET,
        Map.of(TEAM_A, teamA, READER, reader));
    admin = new PlainS3(moto.admin());
  }

  @AfterEach
  void stop() {
    if (moto != null) {
      moto.close();
    }
  }

  /** The job's Hadoop settings: the endpoint and a user's keys, nothing else. */
  private Map<String, String> hadoop(String user) {
    return new LinkedHashMap<>(moto.user(user).s3aOptions());
  }

  private static ActionDeniedException denied(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ActionDeniedException) {
        return (ActionDeniedException) t;
      }
    }
    return null;
  }

  /** Every key of the bucket is under {@code team-a/}, and no object of the check is left. */
  private void assertOnlyUnderTheirPrefixAndNoProbeLeft() {
    List<String> keys = admin.listKeys(BUCKET, "");
    assertTrue(keys.stream().allMatch(k -> k.startsWith("team-a/")), "outside team-a/: " + keys);
    List<String> probes = keys.stream().filter(k -> k.contains("/probe/check-")).collect(Collectors.toList());
    assertEquals(List.of(), probes, "the check deleted its objects");
  }

  @Test
  void stockS3aWritesUnderThePrefixAndIsRefusedOutside() throws Exception {
    try (SparkSession spark = SparkSessions.local("prefix-stock", "local[2]", hadoop(TEAM_A), Map.of())) {
      Throwable e = assertThrows(Throwable.class, () -> SmokeJob.write(spark, "s3a://lake/team-b/stock", ROWS, 4));
      boolean accessDenied = false;
      for (Throwable t = e; t != null; t = t.getCause()) {
        accessDenied |= t instanceof AccessDeniedException;
      }
      assertTrue(accessDenied, "S3A's refusal: " + e);
      SmokeJob.write(spark, "s3a://lake/team-a/stock", ROWS, 4);
      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, "s3a://lake/team-a/stock"));
    }
    assertOnlyUnderTheirPrefixAndNoProbeLeft();
  }

  /**
   * A committer, with the job's credentials: refused where it may read but not write ({@code team-b/}, as the
   * reader), first by its store guarantee check, which writes under the destination; then it works under
   * {@code team-a/} with nothing but that prefix allowed (the check runs again there: a check that could not run is
   * not remembered); then, the verdict known, refused again at its own first write outside the policy.
   *
   * @param probeDir where the committer's check writes under the destination
   */
  private void committerUnderAPrefixScopedPolicy(String name, Map<String, String> sparkConf, String probeDir)
      throws Exception {
    try (SparkSession spark = SparkSessions.local("prefix-" + name + "-refused", "local[2]", hadoop(READER),
        sparkConf)) {
      Throwable e = assertThrows(Throwable.class,
          () -> SmokeJob.write(spark, "s3a://lake/team-b/" + name, ROWS, 4));
      ActionDeniedException refused = denied(e);
      assertNotNull(refused, () -> "an ActionDeniedException in the causes of " + e);
      assertEquals("s3:PutObject", refused.action());
      assertTrue(refused.key().startsWith("team-b/" + name + "/" + probeDir + "check-"), refused.key());
      assertTrue(refused.getMessage().contains("s3:PutObject on lake/team-b/" + name + "/" + probeDir)
          && refused.getMessage().contains("committer"), refused.getMessage());
      assertFalse(refused.getMessage().contains("check the credentials"), refused.getMessage());
    }
    try (SparkSession spark = SparkSessions.local("prefix-" + name, "local[2]", hadoop(TEAM_A), sparkConf)) {
      SmokeJob.write(spark, "s3a://lake/team-a/" + name, ROWS, 4);
      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, "s3a://lake/team-a/" + name));
    }
    assertOnlyUnderTheirPrefixAndNoProbeLeft();
    try (SparkSession spark = SparkSessions.local("prefix-" + name + "-refused-again", "local[2]", hadoop(READER),
        sparkConf)) {
      Throwable e = assertThrows(Throwable.class,
          () -> SmokeJob.write(spark, "s3a://lake/team-b/" + name + "-2", ROWS, 4));
      ActionDeniedException refused = denied(e);
      assertNotNull(refused, () -> "an ActionDeniedException in the causes of " + e);
      assertEquals("s3:PutObject", refused.action());
      assertTrue(refused.key().startsWith("team-b/" + name + "-2/"), refused.key());
      assertFalse(refused.key().contains("/probe/"), "the store is known: no check, the committer's own write");
      assertTrue(refused.getMessage().contains("s3:PutObject on lake/" + refused.key()), refused.getMessage());
    }
    assertOnlyUnderTheirPrefixAndNoProbeLeft();
  }

  @Test
  void theDirectCommitterWorksUnderThePrefixAndIsRefusedOutsideNamingTheKeyAndTheAction() throws Exception {
    committerUnderAPrefixScopedPolicy("direct", DirectCommitters.parquet().sparkConf(),
        "_objectcommit_direct/probe/");
  }

  @Test
  void theStagingCommitterWorksUnderThePrefixAndIsRefusedOutsideNamingTheKeyAndTheAction() throws Exception {
    committerUnderAPrefixScopedPolicy("staging", StagingCommitters.parquetBinding().sparkConf(),
        ".objectcommit-staging/probe/");
  }

  @Test
  void aStatefulQueryCheckpointsUnderThePrefixAndWithoutItIsRefusedNamingTheKeyAndTheAction() throws Exception {
    Path inputDir = Files.createDirectories(S3Endpoints.workDir().resolve("prefix-ckpt-input-" + moto.port()));
    StreamInput input = new StreamInput(inputDir);
    input.addFile(0);
    String checkpoint = "ckpt://" + BUCKET + "/q1";

    // the namespace at the bucket's top level (the default): outside the policy
    try (SparkSession spark = SparkSessions.local("prefix-ckpt-refused", "local[2]", hadoop(TEAM_A),
        ObjectCommitCheckpoints.s3().sparkConf())) {
      Throwable e = assertThrows(Throwable.class, () -> {
        StreamingQuery q = CountingQuery.start(spark, inputDir, checkpoint);
        try {
          q.processAllAvailable();
        } finally {
          q.stop();
        }
      });
      ActionDeniedException refused = denied(e);
      assertNotNull(refused, () -> "an ActionDeniedException in the causes of " + e);
      assertEquals("s3:PutObject", refused.action());
      assertTrue(refused.key().startsWith(".ckpt/probe/check-"), refused.key());
      assertTrue(refused.getMessage().contains("s3:PutObject on lake/.ckpt/probe/check-")
          && refused.getMessage().contains("fs.objectcommit.bucket.lake.checkpoint.s3.prefix"),
          refused.getMessage());
    }

    // the namespace under the job's prefix: a stateful query runs two micro-batches
    Map<String, String> hadoop = hadoop(TEAM_A);
    hadoop.put("fs.objectcommit.bucket." + BUCKET + ".checkpoint.s3.prefix", "team-a/");
    CountingQuery.clear();
    try (SparkSession spark = SparkSessions.local("prefix-ckpt", "local[2]", hadoop,
        ObjectCommitCheckpoints.s3().sparkConf())) {
      StreamingQuery q = CountingQuery.start(spark, inputDir, checkpoint);
      try {
        q.processAllAvailable();
        input.addFile(1);
        q.processAllAvailable();
      } finally {
        q.stop();
      }
    }
    assertEquals(StreamInput.expectedCounts(2), CountingQuery.lastCounts());
    // the offset log's files are small: kept inside their directory's manifest (checkpoint format version 2), so
    // the namespace under team-a/ is its manifests
    List<String> manifests = admin.listKeys(BUCKET, "team-a/.ckpt/dirs/");
    assertTrue(manifests.size() >= 5, "the checkpoint's directories under team-a/: " + manifests);
    assertOnlyUnderTheirPrefixAndNoProbeLeft();
  }
}
