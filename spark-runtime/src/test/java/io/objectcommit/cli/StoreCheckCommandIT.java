package io.objectcommit.cli;

import static io.objectcommit.cli.CheckpointCommandIT.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3Store;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import io.objectcommit.testsupport.proxy.ErrorKind;
import io.objectcommit.testsupport.proxy.ErrorRule;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import io.objectcommit.testsupport.proxy.S3Operation;
import io.objectcommit.testsupport.proxy.SeenRequest;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code objectcommit store check} against S3 through the fault proxy, which counts every request the command
 * sends: a store that gives every guarantee (LocalStack, the harness's default) passes with exit code 0; the same
 * store with the proxy dropping the conditions of PutObject (as S3Proxy 2.0.0 and moto 4.2.14 ignore them) fails
 * with exit code 1; a missing bucket and a closed endpoint are exit code 3.
 */
@S3IntegrationTest
@Tag(TestTags.COMMAND)
class StoreCheckCommandIT {

  /** The requests each guarantee costs on a store that gives it, in the order checked (docs/stores.md). */
  private static final Map<String, Long> REQUESTS = new LinkedHashMap<>();

  static {
    REQUESTS.put("IF_NONE_MATCH_PUT", 3L);
    REQUESTS.put("IF_NONE_MATCH_COMPLETE", 7L);
    REQUESTS.put("IF_MATCH_PUT", 7L);
    REQUESTS.put("IF_MATCH_COMPLETE", 13L);
    REQUESTS.put("ABORT_KEEPS_EXISTING", 5L);
    REQUESTS.put("ATOMIC_EXCLUSIVE_CREATE", 48L);
    REQUESTS.put("ATOMIC_COMPARE_AND_SWAP", 33L);
  }

  /** One line of the table: name, verdict, requests (or -), ms (or -), what was seen. */
  private static final Pattern ROW = Pattern.compile(
      "^(\\S+)\\s+(holds|FAILS|not checked)\\s+(\\d+|-)\\s+(\\d+|-)\\s+(.*)$", Pattern.MULTILINE);
  private static final Pattern CLEANUP = Pattern.compile("^cleanup\\s+(\\d+)\\s+(\\d+)\\s+", Pattern.MULTILINE);
  private static final Pattern TOTAL = Pattern.compile("^total\\s+(\\d+) of 7 hold\\s+(\\d+)\\s+(\\d+)$",
      Pattern.MULTILINE);

  private static final class Row {
    final String verdict;
    final String requests;
    final String seen;

    Row(Matcher m) {
      this.verdict = m.group(2);
      this.requests = m.group(3);
      this.seen = m.group(5);
    }
  }

  private static Map<String, Row> rows(String out) {
    Map<String, Row> rows = new LinkedHashMap<>();
    Matcher m = ROW.matcher(out);
    while (m.find()) {
      rows.put(m.group(1), new Row(m));
    }
    return rows;
  }

  private static long total(String out) {
    Matcher m = TOTAL.matcher(out);
    assertTrue(m.find(), out);
    return Long.parseLong(m.group(2));
  }

  private static long cleanup(String out) {
    Matcher m = CLEANUP.matcher(out);
    assertTrue(m.find(), out);
    return Long.parseLong(m.group(1));
  }

  /** Requests the proxy saw, and that every one of them was on a key under {@code keyPrefix}. */
  private static long requestsUnder(S3FaultProxy proxy, String keyPrefix) {
    List<String> outside = new ArrayList<>();
    for (SeenRequest r : proxy.requests()) {
      boolean onKeys = r.operation() == S3Operation.BULK_DELETE || r.request().key().startsWith(keyPrefix);
      if (!onKeys) {
        outside.add(r.toString());
      }
    }
    assertEquals(List.of(), outside, "every request of the check is on its own keys under " + keyPrefix);
    return proxy.requests().size();
  }

  @Test
  void aStoreThatGivesEveryGuaranteePasses(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    assumeTrue(S3Endpoints.store() == S3Store.LOCALSTACK, "LocalStack gives every guarantee (docs/stores.md)");
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      List<String> settings = CommandRun.settings(proxy.endpoint().s3aOptions(), dir);
      CommandRun run = CommandRun.of(args(settings, "store", "check", bucket.s3a("team-a")));
      System.out.println("STORE-CHECK passing store:\n" + run.out);
      assertEquals(0, run.code, run.toString());
      assertTrue(run.out.startsWith("Store check of bucket '" + bucket.name() + "' at endpoint "
          + proxy.endpoint().uri()), run.out);
      assertTrue(run.out.contains("Wrote under s3://" + bucket.name() + "/" + bucket.key("team-a/check-")),
          "the check writes under the path given: " + run.out);
      Map<String, Row> rows = rows(run.out);
      assertEquals(new ArrayList<>(REQUESTS.keySet()), new ArrayList<>(rows.keySet()), run.out);
      long sum = 0;
      for (Map.Entry<String, Long> e : REQUESTS.entrySet()) {
        Row row = rows.get(e.getKey());
        assertEquals("holds", row.verdict, e.getKey() + ": " + run.out);
        long requests = Long.parseLong(row.requests);
        sum += requests;
        if (!row.seen.contains("retried]")) {
          assertEquals(e.getValue(), requests, e.getKey() + "'s requests: " + run.out);
        }
      }
      assertEquals(sum + cleanup(run.out), total(run.out), "the rows add up to the total: " + run.out);
      if (!run.out.contains("retried]")) {
        assertEquals(3 + 1, cleanup(run.out), "an abort per refused completion, one bulk DELETE: " + run.out);
        assertEquals(120, total(run.out), run.out);
      }
      assertEquals(total(run.out), requestsUnder(proxy, bucket.key("team-a/check-")),
          "the total is what the store received");
      for (SeenRequest r : proxy.requests()) {
        assertEquals("cli", r.referrerParams().get("co"), "the command's requests: " + r);
        assertEquals("guarantee-check", r.referrerParams().get("ck"), "marked as the check's: " + r);
      }
      assertTrue(run.out.contains("total                    7 of 7 hold"), run.out);
      assertTrue(run.out.contains("Every guarantee holds"), run.out);
      for (String component : List.of("checkpoint-fs (ckpt://)", "direct committer", "staging committer")) {
        assertTrue(run.out.contains(String.format("  %-24s can use this store%n", component)), run.out);
      }
    }
    assertEquals(List.of(), bucket.listKeys(""), "the check leaves nothing behind");
  }

  @Test
  void aStoreThatIgnoresConditionsOnPutFails(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    assumeTrue(S3Endpoints.store() == S3Store.LOCALSTACK, "the proxy drops signed headers: LocalStack only");
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      proxy.setFaults(FaultPlan.builder(1).dropConditions(S3Operation.PUT).build());
      List<String> settings = CommandRun.settings(proxy.endpoint().s3aOptions(), dir);
      CommandRun run = CommandRun.of(args(settings, "store", "check", bucket.s3a("team-a")));
      System.out.println("STORE-CHECK store ignoring conditions on PutObject:\n" + run.out);
      assertEquals(1, run.code, run.toString());
      Map<String, Row> rows = rows(run.out);
      assertEquals(new ArrayList<>(REQUESTS.keySet()), new ArrayList<>(rows.keySet()), run.out);
      assertEquals("FAILS", rows.get("IF_NONE_MATCH_PUT").verdict, run.out);
      assertTrue(rows.get("IF_NONE_MATCH_PUT").seen.startsWith("a second exclusive PutObject of one key succeeded"),
          run.out);
      assertEquals("FAILS", rows.get("IF_MATCH_PUT").verdict, run.out);
      assertTrue(rows.get("IF_MATCH_PUT").seen.startsWith("an If-Match PutObject with a stale ETag succeeded"),
          run.out);
      for (String held : List.of("IF_NONE_MATCH_COMPLETE", "IF_MATCH_COMPLETE", "ABORT_KEEPS_EXISTING")) {
        assertEquals("holds", rows.get(held).verdict, held + ": " + run.out);
      }
      for (String race : List.of("ATOMIC_EXCLUSIVE_CREATE", "ATOMIC_COMPARE_AND_SWAP")) {
        assertEquals("not checked", rows.get(race).verdict, race + ": " + run.out);
        assertEquals("-", rows.get(race).requests, run.out);
        assertTrue(rows.get(race).seen.startsWith("an earlier guarantee failed"), run.out);
      }
      if (!run.out.contains("retried]")) {
        assertEquals("2", rows.get("IF_NONE_MATCH_PUT").requests, "two PUTs, both won: " + run.out);
        assertEquals("3", rows.get("IF_MATCH_PUT").requests, "two PUTs, then the stale one won: " + run.out);
      }
      assertTrue(run.out.contains("total                    3 of 7 hold"), run.out);
      assertTrue(run.out.contains("FAILS IF_NONE_MATCH_PUT, IF_MATCH_PUT: the components that rely on them are"
          + " refused"), run.out);
      assertEquals(total(run.out), requestsUnder(proxy, bucket.key("team-a/check-")));
      assertTrue(run.out.contains("  checkpoint-fs (ckpt://)  refused: IF_NONE_MATCH_PUT, IF_MATCH_PUT fail\n"
          + "  direct committer         refused: IF_NONE_MATCH_PUT, IF_MATCH_PUT fail\n"
          + "  staging committer        refused: IF_NONE_MATCH_PUT fails\n"), run.out);

      // --all: the races too, which every racer wins when the store ignores If-None-Match and If-Match
      proxy.resetCounts();
      CommandRun all = CommandRun.of(args(settings, "store", "check", bucket.s3a("team-a"), "--all"));
      System.out.println("STORE-CHECK --all, store ignoring conditions on PutObject:\n" + all.out);
      assertEquals(1, all.code, all.toString());
      Map<String, Row> allRows = rows(all.out);
      assertEquals("FAILS", allRows.get("ATOMIC_EXCLUSIVE_CREATE").verdict, all.out);
      assertTrue(allRows.get("ATOMIC_EXCLUSIVE_CREATE").seen.startsWith("12 of 12 rounds of 4 racing exclusive"
          + " creates had several winners (up to 4)"), all.out);
      assertEquals("FAILS", allRows.get("ATOMIC_COMPARE_AND_SWAP").verdict, all.out);
      assertTrue(all.out.contains("total                    3 of 7 hold"), all.out);
      assertTrue(all.out.contains("  staging committer        refused: IF_NONE_MATCH_PUT, ATOMIC_EXCLUSIVE_CREATE"
          + " fail\n"), all.out);
    }
    assertEquals(List.of(), bucket.listKeys(""), "the check leaves nothing behind");
  }

  @Test
  void aMissingBucketIsExitCode3(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    List<String> settings = CommandRun.settings(bucket, dir);
    CommandRun run = CommandRun.of(args(settings, "store", "check", "s3a://no-such-bucket-objectcommit/team-a"));
    assertEquals(3, run.code, run.toString());
    assertEquals("", run.out);
    assertTrue(run.err.contains("objectcommit store: the check could not run (exit code 3): FileNotFoundException:"
        + " objectcommit store check s3a://no-such-bucket-objectcommit/team-a: checking that bucket"
        + " 'no-such-bucket-objectcommit' at endpoint "), run.err);
    assertTrue(run.err.contains("supports conditional writes failed: the bucket does not exist. First failure: s3://"
        + "no-such-bucket-objectcommit/team-a/check-"), run.err);
  }

  /**
   * Credentials that may not write under the prefix given (the proxy answers 403 AccessDenied to every PutObject
   * there, as AWS does under a policy scoped to another prefix): exit code 3, naming the action and the key.
   */
  @Test
  void aRefusedActionIsExitCode3NamingTheActionAndTheKey(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    try (S3FaultProxy proxy = S3FaultProxy.start(bucket.endpoint())) {
      proxy.setFaults(FaultPlan.builder(1).error(ErrorRule.atRate(ErrorKind.ACCESS_DENIED, 1.0,
          Set.of(S3Operation.PUT)).matching(Pattern.quote(bucket.name() + "/" + bucket.key("team-b/")))).build());
      List<String> settings = CommandRun.settings(proxy.endpoint().s3aOptions(), dir);
      CommandRun run = CommandRun.of(args(settings, "store", "check", bucket.s3a("team-b")));
      System.out.println("STORE-CHECK refused:\n" + run.err);
      assertEquals(3, run.code, run.toString());
      assertEquals("", run.out);
      String key = bucket.key("team-b/check-");
      assertTrue(run.err.startsWith("objectcommit store: the check could not run (exit code 3):"
          + " ActionDeniedException: s3://" + bucket.name() + "/" + key), run.err);
      assertTrue(run.err.contains("objectcommit store check " + bucket.s3a("team-b") + ": checking that bucket '"
          + bucket.name() + "' at endpoint "), run.err);
      assertTrue(run.err.contains("supports conditional writes failed: s3:PutObject on " + bucket.name() + "/" + key),
          run.err);
      assertTrue(run.err.contains("/inm-put was refused. The check writes (and deletes) its objects under s3://"
          + bucket.name() + "/" + bucket.key("team-b/")), run.err);
      assertEquals(1, proxy.requests().size(), "the first PUT refused, nothing else sent: " + proxy.requests());
    }
    assertEquals(List.of(), bucket.listKeys(""), "nothing written");
  }

  @Test
  void aClosedEndpointIsExitCode3(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    Map<String, String> options = new LinkedHashMap<>(bucket.s3aOptions());
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    options.put("fs.s3a.endpoint", "http://127.0.0.1:" + port);
    List<String> settings = CommandRun.settings(options, dir);
    CommandRun run = CommandRun.of(args(settings, "store", "check", bucket.s3a("team-a"),
        "-Dfs.objectcommit.retry.limit=0"));
    assertEquals(3, run.code, run.toString());
    assertTrue(run.err.contains("supports conditional writes failed: the endpoint refused the connection (is it up,"
        + " and is fs.s3a.endpoint right?)"), run.err);
  }
}
