package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Before anything is shown with it: moto's IAM mode refuses what AWS refuses under a policy scoped to one prefix
 * ({@link MotoIam#prefixPolicy}: the objects of {@code team-a/}), and allows what AWS allows there. Also pins the
 * ways it differs from AWS, so that the ITs that rely on it say what they show (docs/stores.md, "IAM permissions"),
 * and a moto release that changes them is noticed. Requests signed by the harness's own SigV4 client
 * ({@link PlainS3}), no SDK.
 */
class MotoIamIT {

  private static final String BUCKET = "lake";
  private static MotoIam moto;
  private static PlainS3 admin;
  private static PlainS3 teamA;

  @BeforeAll
  static void start() throws Exception {
    moto = MotoIam.start(S3Endpoints.workDir().resolve("moto-iam"), BUCKET,
        MotoIam.prefixPolicyForMoto(BUCKET, "team-a/"));
    admin = new PlainS3(moto.admin());
    teamA = new PlainS3(moto.scoped());
    admin.putObject(BUCKET, "team-b/theirs", "team b's object");
  }

  @AfterAll
  static void stop() {
    if (moto != null) {
      moto.close();
    }
  }

  private static PlainS3Exception refused(Executable request) {
    return assertThrows(PlainS3Exception.class, request);
  }

  private static void assertAccessDenied(PlainS3Exception e) {
    assertEquals(403, e.status(), e.toString());
    assertEquals("AccessDenied", e.errorCode(), e.toString());
  }

  @Test
  void writesOutsideThePrefixAreRefusedAndInsideAllowed() {
    teamA.putObject(BUCKET, "team-a/q1/offsets/0", "v1");
    assertEquals("v1", teamA.getObjectAsString(BUCKET, "team-a/q1/offsets/0"));
    assertAccessDenied(refused(() -> teamA.putObject(BUCKET, "team-b/q1/offsets/0", "v1")));
    assertAccessDenied(refused(() -> teamA.putObject(BUCKET, ".objectcommit/probe/check-1/inm-put", "x")));
    assertAccessDenied(refused(() -> teamA.putObject(BUCKET, "team-a", "the prefix without its '/'")));
    assertEquals(List.of("team-a/q1/offsets/0"), admin.listKeys(BUCKET, "team-a/"));
    teamA.deleteObject(BUCKET, "team-a/q1/offsets/0");
    assertEquals(List.of(), admin.listKeys(BUCKET, "team-a/"));
  }

  @Test
  void readsAndDeletesOfAnotherPrefixAreRefused() {
    assertAccessDenied(refused(() -> teamA.getObject(BUCKET, "team-b/theirs")));
    assertAccessDenied(refused(() -> teamA.deleteObject(BUCKET, "team-b/theirs")));
    assertEquals("team b's object", admin.getObjectAsString(BUCKET, "team-b/theirs"), "still there");
  }

  @Test
  void multipartUploadsFollowThePrefix() {
    String id = teamA.initiateMultipartUpload(BUCKET, "team-a/out/part-0");
    teamA.abortMultipartUpload(BUCKET, "team-a/out/part-0", id);
    assertAccessDenied(refused(() -> teamA.initiateMultipartUpload(BUCKET, "team-b/out/part-0")));
    String theirs = admin.initiateMultipartUpload(BUCKET, "team-b/out/part-0");
    assertAccessDenied(refused(() -> teamA.abortMultipartUpload(BUCKET, "team-b/out/part-0", theirs)));
    admin.abortMultipartUpload(BUCKET, "team-b/out/part-0", theirs);
  }

  @Test
  void badCredentialsAreRefusedAsSuch() {
    S3Endpoint scoped = moto.scoped();
    PlainS3 wrongSecret = new PlainS3(new S3Endpoint(scoped.kind(), scoped.uri().toString(), scoped.region(),
        scoped.accessKey(), "not-the-secret", true));
    PlainS3Exception e = refused(() -> wrongSecret.putObject(BUCKET, "team-a/x", "x"));
    assertEquals(403, e.status());
    assertEquals("SignatureDoesNotMatch", e.errorCode());
  }

  @Test
  void aBulkDeleteDeletesTheKeysUnderThePrefix() {
    teamA.putObject(BUCKET, "team-a/bulk/1", "1");
    teamA.putObject(BUCKET, "team-a/bulk/2", "2");
    assertEquals(List.of(), teamA.deleteObjectsInOneRequest(BUCKET, List.of("team-a/bulk/1", "team-a/bulk/2")));
    assertEquals(List.of(), admin.listKeys(BUCKET, "team-a/bulk/"));
  }

  /** moto authorizes a bulk delete on the bucket's ARN: without the statement for it, every key is refused. */
  @Test
  void withThePolicyAsAwsNeedsItMotoRefusesEveryKeyOfABulkDelete() throws Exception {
    try (MotoIam asAws = MotoIam.start(S3Endpoints.workDir().resolve("moto-iam-aws-policy"), BUCKET,
        MotoIam.prefixPolicy(BUCKET, "team-a/"))) {
      PlainS3 scoped = new PlainS3(asAws.scoped());
      scoped.putObject(BUCKET, "team-a/bulk/1", "1");
      assertEquals(List.of("team-a/bulk/1 (AccessDenied)"),
          scoped.deleteObjectsInOneRequest(BUCKET, List.of("team-a/bulk/1")), "AWS would delete it");
      scoped.deleteObject(BUCKET, "team-a/bulk/1");
    }
  }

  /** Where moto is not AWS: asserted so that the ITs relying on moto say what they do not show. */
  @Test
  void whereMotoDiffersFromAws() {
    // AWS refuses a listing outside the s3:prefix condition (403); moto does not evaluate the condition
    assertEquals(List.of("team-b/theirs"), teamA.listKeys(BUCKET, "team-b/"));
    // with the statement moto needs for bulk deletes, it lets one delete outside the prefix (AWS: AccessDenied)
    admin.putObject(BUCKET, "team-b/bulk", "theirs");
    assertEquals(List.of(), teamA.deleteObjectsInOneRequest(BUCKET, List.of("team-b/bulk")));
    assertEquals(List.of(), admin.listKeys(BUCKET, "team-b/bulk"));
    // AWS answers a missing key with 404 only to a caller allowed to list it; moto always does
    PlainS3Exception missing = refused(() -> teamA.getObject(BUCKET, "team-a/missing"));
    assertEquals(404, missing.status());
    assertTrue("NoSuchKey".equals(missing.errorCode()), missing.toString());
  }
}
