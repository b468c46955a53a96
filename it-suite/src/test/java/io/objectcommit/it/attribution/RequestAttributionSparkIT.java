package io.objectcommit.it.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.direct.DirectCommitters;
import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StagingCommitters;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.store.audit.ObjectCommitVersion;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.audit.CommonAuditContext;
import org.apache.hadoop.util.VersionInfo;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request of each component, as the fault proxy sees it (a server access log records the same
 * {@code Referer}), names objectcommit's version, the component, the Spark application, the job, and in a task the
 * task attempt, on the Spark 3.5 line (AWS SDK v1; the Spark 4 lines compile it too, on SDK v2): the staging
 * committer, the direct committer and a {@code ckpt://} streaming query, each in a local Spark session. Ours are
 * told from S3A's (Spark's own file system on {@code s3a://}) by the user agent, which ends with
 * {@code objectcommit}: every one of ours carries the header, none of S3A's carries our fields.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class RequestAttributionSparkIT {

  private static final Logger LOG = LoggerFactory.getLogger(RequestAttributionSparkIT.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** SDK v1 with Hadoop 3.3 (the Spark 3.5 line), v2 with Hadoop 3.4+ (the Spark 4 lines, which compile this too). */
  private static final String SDK_AGENT = VersionInfo.getVersion().startsWith("3.3.")
      ? "aws-sdk-java/1." : "aws-sdk-java/2.";

  @TempDir
  Path tmp;

  /** Our requests (by user agent) of one piece of work, each checked for the fields every request carries. */
  private static List<Map<String, String>> ours(S3TestBucket bucket, List<SeenRequest> seen, String component,
      String application) {
    List<Map<String, String>> out = new ArrayList<>();
    for (SeenRequest r : seen) {
      Map<String, String> f = r.referrerParams();
      boolean ours = r.fromObjectcommit();
      assertEquals(ours, f.containsKey("oc"), "objectcommit's requests, and only they, carry our fields: " + r
          + " User-Agent: " + r.userAgent());
      if (!ours) {
        continue;
      }
      assertTrue(r.userAgent().contains(SDK_AGENT), "the SDK of the Hadoop line: " + r.userAgent());
      assertEquals(ObjectCommitVersion.get(), f.get("oc"), r.toString());
      assertEquals(component, f.get("co"), r.toString());
      assertEquals(application, f.get("sa"), r.toString());
      assertEquals(CommonAuditContext.PROCESS_ID, f.get("ps"), r.toString());
      assertTrue(r.referrerPath().equals("/hadoop/1/" + f.get("op") + "/" + f.get("id") + "/"), r.toString());
      if (!r.request().key().isEmpty()) {
        assertEquals("s3a://" + r.request().bucket() + "/" + r.request().key(), f.get("p1"), r.toString());
      }
      for (String secret : List.of(bucket.endpoint().accessKey(), bucket.endpoint().secretKey())) {
        assertFalse(r.referrer().contains(secret), "no credential in the header: " + r);
      }
      out.add(f);
    }
    return out;
  }

  private static String summary(List<Map<String, String>> requests) {
    Map<String, Integer> byKind = new LinkedHashMap<>();
    for (Map<String, String> f : requests) {
      String kind = f.containsKey("ck") ? "check" : f.containsKey("ta") ? "task attempt" : f.containsKey("st")
          ? "task" : "driver";
      byKind.merge(kind, 1, Integer::sum);
    }
    return byKind.toString();
  }

  private void committer(S3TestBucket testBucket, String component, CommitterContender contender) throws Exception {
    try (ProxiedBucket bucket = new ProxiedBucket(testBucket)) {
      SparkSession spark = SparkSessions.local("attribution-" + component, "local[2]", bucket.s3aOptions(),
          contender.sparkConf());
      String app = spark.sparkContext().applicationId();
      String out = testBucket.s3a("tables/" + component);
      try {
        spark.range(0, 200, 1, 2).write().parquet(out);
      } finally {
        spark.stop();
      }
      String jobId = JSON.readTree(testBucket.plain().getObjectAsString(testBucket.name(),
          testBucket.key("tables/" + component + "/_SUCCESS"))).path("jobId").asText();
      assertFalse(jobId.isEmpty());
      List<Map<String, String>> requests = ours(testBucket, bucket.proxy().requests(), component, app);
      Set<String> attempts = new TreeSet<>();
      Set<String> sparkTasks = new TreeSet<>();
      int jobRequests = 0;
      for (Map<String, String> f : requests) {
        assertEquals(jobId, f.get("ji"), "every request names the job of _SUCCESS: " + f);
        if (f.containsKey("ta")) {
          assertTrue(f.get("ta").matches("attempt_\\d+_\\d+_m_00000[01]_\\d+"), f.toString());
          if (!f.containsKey("ck")) {
            assertTrue(f.containsKey("st"), "a task's request names Spark's task id: " + f);
            attempts.add(f.get("ta"));
            sparkTasks.add(f.get("st"));
          }
        } else {
          assertFalse(f.containsKey("st"), "job setup and commit run outside tasks: " + f);
          jobRequests++;
        }
      }
      assertEquals(2, attempts.size(), "both task attempts: " + attempts);
      assertEquals(2, sparkTasks.size(), "two Spark tasks: " + sparkTasks);
      assertTrue(jobRequests > 0, "job setup and commit");
      assertTrue(requests.stream().anyMatch(f -> f.containsKey("ck")), "the guarantee check at job setup, marked");
      LOG.info("ATTRIBUTION component={} requests={} {} job={} application={}", component, requests.size(),
          summary(requests), jobId, app);
    }
  }

  @Test
  void stagingCommitterRequestsNameTheirJobAndTaskAttempts(S3TestBucket bucket) throws Exception {
    committer(bucket, "staging", StagingCommitters.protocol());
  }

  @Test
  void directCommitterRequestsNameTheirJobAndTaskAttempts(S3TestBucket bucket) throws Exception {
    committer(bucket, "direct", DirectCommitters.parquet());
  }

  @Test
  void checkpointRequestsNameTheQueryAndTheStateStoreTasks(S3TestBucket testBucket) throws Exception {
    try (ProxiedBucket bucket = new ProxiedBucket(testBucket)) {
      StreamInput input = new StreamInput(Files.createDirectories(tmp.resolve("input")));
      for (int i = 0; i < 2; i++) {
        input.addFile(i);
      }
      Map<String, String> conf = new LinkedHashMap<>(ObjectCommitCheckpoints.s3().sparkConf());
      SparkSession spark = SparkSessions.local("attribution-checkpoint", "local[2]", bucket.s3aOptions(), conf);
      String app = spark.sparkContext().applicationId();
      String queryId;
      try {
        CountingQuery.clear();
        StreamingQuery q = CountingQuery.start(spark, input.dir(),
            ObjectCommitCheckpoints.s3().location(bucket, "checkpoints/attributed"));
        queryId = q.id().toString();
        q.processAllAvailable();
        q.stop();
      } finally {
        spark.stop();
      }
      List<Map<String, String>> requests = ours(testBucket, bucket.proxy().requests(), "checkpoint", app);
      List<Map<String, String>> inTasks = requests.stream().filter(f -> f.containsKey("st"))
          .collect(Collectors.toList());
      assertFalse(inTasks.isEmpty(), "the state stores wrote from tasks");
      for (Map<String, String> f : requests) {
        assertFalse(f.containsKey("ta"), "no Hadoop task attempt for checkpoints: " + f);
        if (f.containsKey("ji")) {
          assertEquals(queryId, f.get("ji"), "the job of a checkpoint request is its streaming query: " + f);
        }
      }
      for (Map<String, String> f : inTasks) {
        assertEquals(queryId, f.get("ji"), "a state store's request names its query: " + f);
      }
      assertTrue(requests.stream().anyMatch(f -> !f.containsKey("st") && queryId.equals(f.get("ji"))),
          "the driver's offset and commit logs name the query too");
      LOG.info("ATTRIBUTION component=checkpoint requests={} {} query={} application={}", requests.size(),
          summary(requests), queryId, app);
    }
  }
}
