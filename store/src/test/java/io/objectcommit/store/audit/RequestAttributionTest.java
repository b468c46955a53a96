package io.objectcommit.store.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.spark.SparkRuntime;
import io.objectcommit.store.spark.SparkStandIns;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.audit.CommonAuditContext;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The attribution header's layout, fields, encoding, switch and filter (no network, Spark by stand-ins). */
class RequestAttributionTest {

  private static final Pattern LAYOUT = Pattern.compile(
      "https://audit\\.example\\.org/hadoop/1/([a-z_]+)/([0-9a-f-]{36}-[0-9]{8})/\\?(.*)");

  @TempDir
  Path dir;

  private static SparkRuntime noSpark() {
    return SparkStandIns.absent();
  }

  /** The query fields of a header, decoded, in order. */
  static Map<String, String> fields(String header) {
    Matcher m = LAYOUT.matcher(header);
    assertTrue(m.matches(), header);
    Map<String, String> f = new LinkedHashMap<>();
    for (String part : m.group(3).split("&")) {
      int eq = part.indexOf('=');
      f.put(part.substring(0, eq), URLDecoder.decode(part.substring(eq + 1).replace("+", "%2B"),
          StandardCharsets.UTF_8));
    }
    assertEquals(m.group(1), f.get("op"), "the path's operation is the op field");
    assertEquals(m.group(2), f.get("id"), "the path's span id is the id field");
    return f;
  }

  @Test
  void s3aLayoutWithOurFieldsAndNoSparkOutsideSpark() throws Exception {
    RequestAttribution a = new RequestAttribution(AuditSettings.DEFAULT, AuditContext.of(AuditContext.DIRECT)
        .withJob("job-7").withTaskAttempt("attempt_202611250000_0001_m_000003_0"), noSpark(), "lake", false,
        () -> 1764000000000L);
    String h = a.header("op_put_conditional", "tables/t1/part-00003.parquet");
    Map<String, String> f = fields(h);
    assertEquals(List.of("op", "p1", "pr", "ps", "id", "t0", "ts", "oc", "co", "ji", "ta"),
        List.copyOf(f.keySet()), h);
    assertEquals("op_put_conditional", f.get("op"));
    assertEquals("s3a://lake/tables/t1/part-00003.parquet", f.get("p1"));
    assertEquals(UserGroupInformation.getCurrentUser().getUserName(), f.get("pr"));
    assertEquals(CommonAuditContext.PROCESS_ID, f.get("ps"), "the JVM, as S3A names it");
    assertEquals(Long.toString(Thread.currentThread().getId()), f.get("t0"));
    assertEquals("1764000000000", f.get("ts"));
    assertEquals(ObjectCommitVersion.get(), f.get("oc"));
    assertFalse(f.get("oc").equals("unknown"), "the build wrote the version");
    assertEquals("direct", f.get("co"));
    assertEquals("job-7", f.get("ji"));
    assertEquals("attempt_202611250000_0001_m_000003_0", f.get("ta"));

    Map<String, String> next = fields(a.header("op_get", "k"));
    assertFalse(next.get("id").equals(f.get("id")), "a span id per request");
    assertEquals(f.get("id").substring(0, 36), next.get("id").substring(0, 36), "one prefix per store");
    assertTrue(next.get("id").endsWith("-00000002"), next.get("id"));
  }

  @Test
  void keysAreEncodedSoThatEveryDecoderReadsThemBack() throws Exception {
    RequestAttribution a = new RequestAttribution(AuditSettings.DEFAULT, AuditContext.of(AuditContext.STORE),
        noSpark(), "b");
    String key = "dir with space/a&b=c+d%e/ü#?.txt";
    String h = a.header("op_head", key);
    assertFalse(h.contains(" "), h);
    assertTrue(h.contains("p1=s3a://b/dir%20with%20space/a%26b%3Dc%2Bd%25e/%C3%BC%23%3F.txt&"), h);
    assertEquals("s3a://b/" + key, fields(h).get("p1"));
  }

  @Test
  void offMeansNoHeaderAndTheFilterLeavesFieldsOut() throws Exception {
    assertNull(new RequestAttribution(AuditSettings.OFF, AuditContext.of(AuditContext.STAGING), noSpark(), "b")
        .header("op_put", "k"));
    assertNull(RequestAttribution.none().header("op_put", "k"));
    Map<String, String> f = fields(new RequestAttribution(new AuditSettings(true, Set.of("pr", "p1")),
        AuditContext.of(AuditContext.STAGING), noSpark(), "b").header("op_put", "k"));
    assertFalse(f.containsKey("pr") || f.containsKey("p1"), f.toString());
    assertEquals("staging", f.get("co"));
  }

  @Test
  void theChecksRequestsAreMarked() throws Exception {
    RequestAttribution a = new RequestAttribution(AuditSettings.DEFAULT, AuditContext.of(AuditContext.CHECKPOINT),
        noSpark(), "b");
    assertFalse(fields(a.header("op_put", "k")).containsKey("ck"));
    assertEquals("guarantee-check", fields(a.forGuaranteeCheck().header("op_put", "k")).get("ck"));
  }

  @Test
  void sparksIdsAreTheSendingThreads() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(dir).environment("app-20261125101010-0003", "1");
    RequestAttribution ckpt = new RequestAttribution(AuditSettings.DEFAULT, AuditContext.of(AuditContext.CHECKPOINT),
        spark.runtime(), "b");
    Map<String, String> outsideTasks = fields(ckpt.header("op_get", "k"));
    assertEquals("app-20261125101010-0003", outsideTasks.get("sa"));
    assertFalse(outsideTasks.containsKey("st") || outsideTasks.containsKey("ji"), outsideTasks.toString());

    spark.task(17, Map.of(SparkRuntime.STREAMING_QUERY_ID, "5f1c-query"));
    try {
      Map<String, String> inTask = fields(ckpt.header("op_put_conditional", "k"));
      assertEquals("17", inTask.get("st"));
      assertEquals("5f1c-query", inTask.get("ji"), "the streaming query, for a component without a job of its own");
      Map<String, String> committer = fields(new RequestAttribution(AuditSettings.DEFAULT,
          AuditContext.of(AuditContext.STAGING).withJob("write-uuid"), spark.runtime(), "b").header("op_put", "k"));
      assertEquals("write-uuid", committer.get("ji"), "a component's own job id wins");
      assertEquals("17", committer.get("st"));
    } finally {
      spark.task(-1, Map.of());
    }
  }

  @Test
  void aTaskAttemptsStoreNamesItsTaskFromOtherThreadsToo() throws Exception {
    SparkStandIns spark = SparkStandIns.compile(dir).environment("app-1", "2");
    spark.task(23, Map.of());
    RequestAttribution attempt;
    RequestAttribution fileSystem;
    try {
      attempt = new RequestAttribution(AuditSettings.DEFAULT, AuditContext.of(AuditContext.STAGING).withJob("j")
          .withTaskAttempt("attempt_1_0001_m_000000_0"), spark.runtime(), "b");
      fileSystem = new RequestAttribution(AuditSettings.DEFAULT, AuditContext.of(AuditContext.CHECKPOINT),
          spark.runtime(), "b");
    } finally {
      spark.task(-1, Map.of());
    }
    String[] fromUploadThread = new String[2];
    Thread upload = new Thread(() -> {
      fromUploadThread[0] = attempt.header("op_multipart_part", "k");
      fromUploadThread[1] = fileSystem.header("op_put", "k");
    });
    upload.start();
    upload.join();
    assertEquals("23", fields(fromUploadThread[0]).get("st"), "the task that opened the attempt's store");
    assertFalse(fields(fromUploadThread[1]).containsKey("st"), "a shared store names only the sender's task");
  }
}
