package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The bytes a seen GET asked for, from its {@code Range} header as S3 reads it. */
class SeenRequestTest {

  private static SeenRequest get(String range) {
    return new SeenRequest(S3Request.classify("GET", "/b/k", null), 206, null, null, range);
  }

  @Test
  void requestedBytesFollowTheRangeHeader() {
    assertEquals(100, get(null).requestedBytes(100), "no Range: the whole object");
    assertEquals(10, get("bytes=0-9").requestedBytes(100));
    assertEquals(30, get("bytes=70-").requestedBytes(100), "open-ended: to the object's end");
    assertEquals(5, get("bytes=95-199").requestedBytes(100), "clipped to the object");
    assertEquals(20, get("bytes=-20").requestedBytes(100), "a suffix range: the last bytes");
    assertEquals(0, get("bytes=100-").requestedBytes(100), "from the end: nothing");
  }
}
