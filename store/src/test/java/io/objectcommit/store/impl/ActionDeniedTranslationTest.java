package io.objectcommit.store.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.store.impl.v2.V2Calls;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A 403 for want of a permission names the IAM action and the key refused ({@link ActionDeniedException}, the type
 * callers branch on), for every operation the store sends; a 403 of the credentials themselves stays a plain
 * {@link AccessDeniedException} about the credentials.
 */
class ActionDeniedTranslationTest {

  private static final ErrorTranslation ERRORS = new ErrorTranslation("bucket 'lake' at endpoint http://h:1");

  private static RequestFailure answer(int status, String code) {
    return V2Calls.failure((S3Exception) S3Exception.builder().statusCode(status).requestId("req-1")
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("Access Denied").build())
        .message("Access Denied").build());
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
      "op_put, s3://lake/team-b/x, s3:PutObject, team-b/x, s3:PutObject on lake/team-b/x",
      "op_put_conditional, s3://lake/team-b/x, s3:PutObject, team-b/x, s3:PutObject on lake/team-b/x",
      "op_multipart_initiate, s3://lake/team-b/x, s3:PutObject, team-b/x, s3:PutObject on lake/team-b/x",
      "op_multipart_part, s3://lake/team-b/x, s3:PutObject, team-b/x, s3:PutObject on lake/team-b/x",
      "op_multipart_complete, s3://lake/team-b/x, s3:PutObject, team-b/x, s3:PutObject on lake/team-b/x",
      "op_multipart_abort, s3://lake/team-b/x, s3:AbortMultipartUpload, team-b/x,"
          + " s3:AbortMultipartUpload on lake/team-b/x",
      "op_get, s3://lake/team-b/x, s3:GetObject, team-b/x, s3:GetObject on lake/team-b/x",
      "op_head, s3://lake/team-b/x, s3:GetObject, team-b/x, s3:GetObject on lake/team-b/x",
      "op_delete, s3://lake/team-b/x, s3:DeleteObject, team-b/x, s3:DeleteObject on lake/team-b/x",
      "op_delete_bulk, s3://lake/team-b/x, s3:DeleteObject, team-b/x, s3:DeleteObject on lake/team-b/x",
      "op_list, s3://lake/team-b/, s3:ListBucket, team-b/, s3:ListBucket on lake",
      "op_head_bucket, s3://lake/, s3:ListBucket, , s3:ListBucket on lake",
      "op_multipart_list, s3://lake/team-b/, s3:ListBucketMultipartUploads, team-b/,"
          + " s3:ListBucketMultipartUploads on lake",
      "op_list_versions, s3://lake/team-b/, s3:ListBucketVersions, team-b/, s3:ListBucketVersions on lake",
  })
  void aRefusedActionNamesTheActionAndTheKey(String op, String path, String action, String key, String refused) {
    IOException e = ERRORS.translate(op, path, answer(403, "AccessDenied"), 0);
    assertTrue(e instanceof ActionDeniedException, e.toString());
    ActionDeniedException denied = (ActionDeniedException) e;
    assertEquals(action, denied.action());
    assertEquals("lake", denied.bucket());
    assertEquals(key, denied.key());
    assertEquals(refused, denied.refused());
    assertEquals(path, denied.getFile());
    String m = e.getMessage();
    assertTrue(m.startsWith(path + ": " + refused + " ") && m.contains(" was refused: " + op)
        && m.contains("403 AccessDenied") && m.contains("req-1") && m.contains("bucket 'lake' at endpoint")
        && m.contains("The credentials were accepted") && m.contains("docs/stores.md"), m);
    assertFalse(m.contains("check the credentials"), m);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken"})
  void refusedCredentialsAreAboutTheCredentials(String code) {
    IOException e = ERRORS.translate("op_put", "s3://lake/team-a/x", answer(403, code), 0);
    assertEquals(AccessDeniedException.class, e.getClass());
    assertTrue(e.getMessage().contains("the credentials were refused"), e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"op_get", "op_head"})
  void aRefusedReadAlsoNamesTheListPermissionThatTurnsA404Into403(String op) {
    String m = ERRORS.translate(op, "s3://lake/team-a/missing", answer(403, "AccessDenied"), 0).getMessage();
    assertTrue(m.contains("s3:ListBucket") && m.contains("403 instead of 404"), m);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"op_put", "op_list"})
  void anActionNotKnownHereIsAPlainAccessDenied(String known) {
    assertNull(IamActions.denied("op_something_new", "s3://lake/k", "summary", "AccessDenied"));
    assertTrue(IamActions.denied(known, "s3://lake/k", "summary", "AccessDenied") != null);
  }
}
