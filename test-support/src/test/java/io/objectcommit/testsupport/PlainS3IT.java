package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** PlainS3 against the harness's S3 endpoint: every call the tests use, signed and parsed. */
@S3IntegrationTest
class PlainS3IT {

  @Test
  void objectsRoundTripAndListAcrossPages(S3TestBucket bucket) {
    PlainS3 s3 = bucket.plain();
    String odd = bucket.key("dir/a b+c=d&é~.txt");
    s3.putObject(bucket.name(), odd, "hello");
    assertEquals("hello", s3.getObjectAsString(bucket.name(), odd));
    s3.putObject(bucket.name(), bucket.key("dir/empty"), new byte[0]);
    assertEquals(0, s3.getObject(bucket.name(), bucket.key("dir/empty")).length);
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      many.add(bucket.key(String.format("many/%04d", i)));
    }
    many.forEach(k -> s3.putObject(bucket.name(), k, k.getBytes(StandardCharsets.UTF_8)));
    assertEquals(many, s3.listKeys(bucket.name(), bucket.key("many/"), 2), "5 keys: three pages of 2");
    assertEquals(many, bucket.listKeys("many/"));
    assertEquals(List.of(odd, bucket.key("dir/empty")), bucket.listKeys("dir/"));

    s3.deleteObject(bucket.name(), odd);
    PlainS3Exception gone = assertThrows(PlainS3Exception.class, () -> s3.getObjectAsString(bucket.name(), odd));
    assertEquals(404, gone.status());
    assertEquals("GetObject", gone.operation());
    assertEquals(odd, gone.key());
    s3.deleteObjects(bucket.name(), bucket.listKeys("many/"));
    assertEquals(List.of(), bucket.listKeys("many/"));
  }

  @Test
  void multipartUploadsAreStartedListedAndAborted(S3TestBucket bucket) {
    PlainS3 s3 = bucket.plain();
    String a = s3.initiateMultipartUpload(bucket.name(), bucket.key("t/part-0"));
    String b = s3.initiateMultipartUpload(bucket.name(), bucket.key("u/part-0"));
    assertEquals(List.of(new PlainS3.Upload(bucket.key("t/part-0"), a)),
        s3.listMultipartUploads(bucket.name(), bucket.key("t/")));
    s3.abortMultipartUpload(bucket.name(), bucket.key("t/part-0"), a);
    assertEquals(List.of(new PlainS3.Upload(bucket.key("u/part-0"), b)),
        s3.listMultipartUploads(bucket.name(), bucket.key("")));
  }

  @Test
  void versionsAndDeleteMarkersAreListedAcrossPages(S3TestBucket bucket) {
    PlainS3 s3 = bucket.plain();
    assertEquals("", s3.versioningStatus(bucket.name()));
    bucket.enableVersioning();
    assertEquals("Enabled", s3.versioningStatus(bucket.name()));
    s3.putObject(bucket.name(), bucket.key("v/a"), "one");
    s3.putObject(bucket.name(), bucket.key("v/a"), "two!");
    s3.putObject(bucket.name(), bucket.key("v/b"), "b");
    s3.deleteObject(bucket.name(), bucket.key("v/b"));
    List<PlainS3.Version> all = s3.listVersions(bucket.name(), bucket.key("v/"), 2);
    assertEquals(List.of("v/a true false 4", "v/a false false 3", "v/b true true 0", "v/b false false 1"),
        all.stream().map(v -> v.key().substring(bucket.prefix().length()) + " " + v.latest() + " "
            + v.deleteMarker() + " " + v.size()).collect(Collectors.toList()), all.toString());
    assertEquals(all, s3.listVersions(bucket.name(), bucket.key("v/")), "one page or three");
    assertEquals(List.of(bucket.key("v/a")), bucket.listKeys("v/"));
  }

  @Test
  void aMissingBucketIsAnErrorWithItsCode(S3Endpoint endpoint) {
    PlainS3Exception e = assertThrows(PlainS3Exception.class,
        () -> new PlainS3(endpoint).listKeys("no-such-bucket-objectcommit-plain", ""));
    assertEquals(404, e.status());
    assertEquals("NoSuchBucket", e.errorCode());
  }
}
