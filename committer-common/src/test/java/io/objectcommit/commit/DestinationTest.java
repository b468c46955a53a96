package io.objectcommit.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class DestinationTest {

  @Test
  void s3SchemesGiveBucketAndPrefix() {
    for (String scheme : new String[] {"s3a", "s3", "s3n", "S3A"}) {
      Destination d = Destination.of(new Path(scheme + "://my-bucket/warehouse/table/"), "test committer");
      assertEquals("my-bucket", d.bucket(), scheme);
      assertEquals("warehouse/table/", d.prefix(), scheme);
      assertEquals("warehouse/table/_SUCCESS", d.successKey());
      assertEquals("warehouse/table/x/y", d.key("x/y"));
    }
  }

  @Test
  void theBucketRootHasAnEmptyPrefix() {
    Destination d = Destination.of(new Path("s3a://b/"), "c");
    assertEquals("", d.prefix());
    assertEquals("_SUCCESS", d.successKey());
    assertEquals("s3://b/", d.toString());
  }

  @Test
  void theBucketIsTheAuthority() {
    // a bucket name with a dot and upper case would not be a URI host
    assertEquals("Bucket.With_Underscore", Destination.of(new Path("s3a://Bucket.With_Underscore/t"), "c").bucket());
  }

  @Test
  void otherSchemesAndMissingBucketsAreRefused() {
    for (String p : new String[] {"hdfs://nn/t", "file:///tmp/t", "s3x://b/t", "gs://b/t", "/relative/t"}) {
      UnsupportedDestinationException e = assertThrows(UnsupportedDestinationException.class,
          () -> Destination.of(new Path(p), "staging committer"), p);
      assertEquals(new Path(p), e.path());
    }
  }

  @Test
  void theMessageNamesThePathAndTheAcceptedSchemes() {
    // the message is what a user reads; its content is the point of this test
    String m = assertThrows(UnsupportedDestinationException.class,
        () -> Destination.of(new Path("hdfs://nn/t"), "direct committer")).getMessage();
    assertTrue(m.contains("hdfs://nn/t") && m.contains("s3a://, s3://, s3n://") && m.contains("direct committer"), m);
  }
}
