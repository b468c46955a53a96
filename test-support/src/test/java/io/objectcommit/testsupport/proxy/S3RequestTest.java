package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class S3RequestTest {

  @ParameterizedTest(name = "{0} {1} -> {3}")
  @CsvSource(delimiter = '|', value = {
      "PUT    | /b/k                              |      | PUT",
      "PUT    | /b/dir/k                          | b/s  | COPY",
      "PUT    | /b/k?partNumber=1&uploadId=u      |      | MULTIPART_PART",
      "PUT    | /b/k?partNumber=1&uploadId=u      | b/s  | MULTIPART_PART",
      "PUT    | /b/k?tagging                      |      | OTHER",
      "GET    | /b/k                              |      | GET",
      "GET    | /b/k?partNumber=1                 |      | GET",
      "GET    | /b/k?uploadId=u                   |      | MULTIPART_LIST",
      "GET    | /b/k?acl                          |      | OTHER",
      "HEAD   | /b/k                              |      | HEAD",
      "DELETE | /b/k                              |      | DELETE",
      "DELETE | /b/k?uploadId=u                   |      | MULTIPART_ABORT",
      "POST   | /b/k?uploads                      |      | MULTIPART_INITIATE",
      "POST   | /b/k?uploadId=u                   |      | MULTIPART_COMPLETE",
      "POST   | /b?delete                         |      | BULK_DELETE",
      "GET    | /b?list-type=2&prefix=a%2F&delimiter=%2F | | LIST",
      "GET    | /b/?prefix=a/&marker=x            |      | LIST",
      "GET    | /b                                |      | LIST",
      "GET    | /b?uploads&prefix=x               |      | MULTIPART_LIST",
      "GET    | /b?versions&prefix=a%2F&key-marker=k | | LIST_VERSIONS",
      "GET    | /b?versioning                     |      | BUCKET",
      "PUT    | /b?versioning                     |      | BUCKET",
      "GET    | /b?location                       |      | BUCKET",
      "PUT    | /b                                |      | BUCKET",
      "HEAD   | /b                                |      | BUCKET",
      "GET    | /                                 |      | OTHER",
  })
  void classifiesPathStyleRequests(String method, String target, String copySource, S3Operation expected) {
    assertEquals(expected, S3Request.classify(method, target, copySource).operation());
  }

  @Test
  void decodesBucketKeyAndQuery() {
    S3Request r = S3Request.classify("GET", "/bkt/a%20b/c%2Bd+e.txt?list-type=2&prefix=x%2Fy", null);
    assertEquals("bkt", r.bucket());
    assertEquals("a b/c+d+e.txt", r.key());
    assertEquals("bkt/a b/c+d+e.txt", r.path());
    assertEquals("x/y", r.param("prefix"));
    assertEquals("", S3Request.classify("GET", "/bkt?uploads", null).param("uploads"));
  }
}
