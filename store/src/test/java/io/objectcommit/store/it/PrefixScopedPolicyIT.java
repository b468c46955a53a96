package io.objectcommit.store.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.StoreContext;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.testsupport.MotoIam;
import io.objectcommit.testsupport.PlainS3;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3Endpoints;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On a store that enforces IAM policies (moto's IAM mode, {@link MotoIam}; what it models and where it differs from
 * AWS: {@code MotoIamIT}) with the credentials of a job that may use only {@code team-a/}: the store guarantee check
 * runs entirely under the prefix the component names, with the job's own permissions, and sends no request on the
 * bucket; where the check or a write is refused, the error names the key and the IAM action
 * ({@link ActionDeniedException}), and refused credentials stay an error about the credentials. On the SDK v2 binding:
 * moto's IAM mode refuses the signatures of SDK v1 (the last test shows it).
 */
class PrefixScopedPolicyIT {

  private static final String BUCKET = "lake";
  /** The sequential guarantees, which moto 5.2.5 gives (its rare lost races are not what this test is about). */
  private static final Set<StoreGuarantee> SEQUENTIAL = EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT,
      StoreGuarantee.IF_NONE_MATCH_COMPLETE, StoreGuarantee.IF_MATCH_PUT, StoreGuarantee.ABORT_KEEPS_EXISTING);
  /** A request in moto's log: {@code "PUT /lake/team-a/x?uploads HTTP/1.1" 200}. */
  private static final Pattern REQUEST = Pattern.compile("\"([A-Z]+) (/[^ ?]*)(\\?[^ ]*)? HTTP/[0-9.]+\" (\\d{3})");

  /** The colours moto's server gives a failed request's line in its log. */
  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");

  private static MotoIam moto;

  @BeforeAll
  static void start() throws Exception {
    moto = MotoIam.start(S3Endpoints.workDir().resolve("prefix-scoped"), BUCKET,
        MotoIam.prefixPolicyForMoto(BUCKET, "team-a/"));
  }

  @AfterAll
  static void stop() {
    if (moto != null) {
      moto.close();
    }
  }

  private static Configuration conf(S3Endpoint who, String sdk) {
    Configuration conf = new Configuration(false);
    who.s3aOptions().forEach(conf::set);
    conf.set(StoreConstants.SDK, sdk);
    return conf;
  }

  /** The requests moto served since {@code fromLine} of its log: method, path with query, status. */
  private static List<String[]> requestsSince(int fromLine) throws Exception {
    List<String[]> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(logFile());
    for (String line : lines.subList(fromLine, lines.size())) {
      Matcher m = REQUEST.matcher(ANSI.matcher(line).replaceAll(""));
      if (m.find()) {
        out.add(new String[] {m.group(1), m.group(2), m.group(3) == null ? "" : m.group(3), m.group(4)});
      }
    }
    return out;
  }

  private static Path logFile() {
    return moto.logFile();
  }

  /**
   * The lines of moto's log once it has stopped growing: moto writes a request's line after answering it, so the
   * line of a request an earlier test sent may still be on its way when the next test starts counting.
   */
  private static int logLines() throws Exception {
    int lines = Files.readAllLines(logFile()).size();
    for (int stable = 0; stable < 2; ) {
      Thread.sleep(250);
      int now = Files.readAllLines(logFile()).size();
      stable = now == lines ? stable + 1 : 0;
      lines = now;
    }
    return lines;
  }

  @Test
  void theCheckRunsUnderTheComponentsPrefixWithTheJobsOwnPermissions() throws Exception {
    int from = logLines();
    String site = "team-a/out/_objectcommit_direct/probe/";
    try (ObjectStore store = new StoreContext().open(BUCKET, conf(moto.scoped(), "v2"))) {
      store.requireGuarantees(SEQUENTIAL, "the direct committer", ProbeSite.under(site));
    }
    List<String[]> requests = requestsSince(from);
    assertTrue(requests.size() > 20, "the check ran: " + requests.size() + " requests");
    int bulkDeletes = 0;
    for (String[] r : requests) {
      String what = String.join(" ", r);
      if (r[0].equals("POST") && r[1].equals("/" + BUCKET) && r[2].equals("?delete")) {
        bulkDeletes++; // DeleteObjects is sent to the bucket and authorized key by key (s3:DeleteObject)
      } else {
        assertTrue(r[1].startsWith("/" + BUCKET + "/" + site + "check-"), "a request outside the site: " + what);
      }
      assertFalse(r[3].equals("403"), "refused: " + what);
    }
    assertEquals(1, bulkDeletes, "the cleanup");
    assertEquals(List.of(), new PlainS3(moto.admin()).listKeys(BUCKET, ""), "the check deleted what it wrote");
  }

  @Test
  void atTheBucketRootTheCheckIsRefusedNamingTheKeyAndTheAction() throws Exception {
    Configuration conf = conf(moto.scoped(), "v2");
    conf.set(StoreConstants.PROBE_PREFIX, StoreConstants.PROBE_PREFIX_FALLBACK);
    int from = logLines();
    try (ObjectStore store = new StoreContext().open(BUCKET, conf)) {
      ActionDeniedException e = assertThrows(ActionDeniedException.class, () -> store.requireGuarantees(
          SEQUENTIAL, "checkpoint-fs (ckpt://)", ProbeSite.under("team-a/.ckpt/probe/")
              .forOperation("initialize ckpt://" + BUCKET + "/")));
      assertEquals("s3:PutObject", e.action());
      assertEquals(BUCKET, e.bucket());
      assertTrue(e.key().startsWith(".objectcommit/probe/check-"), e.key());
      String m = e.getMessage();
      assertTrue(m.contains("initialize ckpt://lake/") && m.contains("s3:PutObject on lake/.objectcommit/probe/check-")
          && m.contains("403 AccessDenied") && m.contains(StoreConstants.PROBE_PREFIX), m);
      assertFalse(m.contains("check the credentials"), m);
    }
    for (String[] r : requestsSince(from)) {
      assertFalse(r[1].equals("/" + BUCKET) || r[1].equals("/" + BUCKET + "/"), "a bucket request: " + r[0]);
    }
  }

  @Test
  void aComponentsOwnWriteOutsideThePolicyNamesTheKeyAndTheAction() throws Exception {
    Configuration conf = conf(moto.scoped(), "v2");
    conf.set(StoreConstants.CONDITIONAL_WRITES, "assume");
    try (ObjectStore store = new StoreContext().open(BUCKET, conf)) {
      store.put("team-a/allowed", Payload.of(new byte[] {1}), WriteCondition.ifAbsent());
      ActionDeniedException put = assertThrows(ActionDeniedException.class,
          () -> store.put("team-b/out/part-0", Payload.of(new byte[] {1}), WriteCondition.ifAbsent()));
      assertEquals("s3:PutObject on lake/team-b/out/part-0", put.refused());
      ActionDeniedException get = assertThrows(ActionDeniedException.class, () -> store.getBytes("team-b/x"));
      assertEquals("s3:GetObject on lake/team-b/x", get.refused());
      store.delete("team-a/allowed");
    }
  }

  @Test
  void sdkV1SignaturesAreRefusedByMotosIamModeAsCredentialsNotAsAnAction() throws Exception {
    Configuration conf = conf(moto.scoped(), "v1");
    conf.set(StoreConstants.CONDITIONAL_WRITES, "assume");
    try (ObjectStore store = new StoreContext().open(BUCKET, conf)) {
      AccessDeniedException e = assertThrows(AccessDeniedException.class,
          () -> store.put("team-a/v1", Payload.of(new byte[] {1}), WriteCondition.none()));
      assertFalse(e instanceof ActionDeniedException, e.toString());
      assertTrue(e.getMessage().contains("SignatureDoesNotMatch") && e.getMessage().contains("credentials"),
          e.getMessage());
    }
  }
}
