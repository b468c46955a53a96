package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The S3 backend's data stream keeps InputStream's argument contract at every position, before any request: what
 * Hadoop 3.4's open contract suite checks with {@code read(null, 0, 10)} (the Spark 4 lines run that suite).
 */
class ObjectSeekableStreamTest {

  private static final byte[] DATA = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final InMemoryObjectStore store = InMemoryObjectStore.create("bucket");

  private ObjectSeekableStream open(byte[] data) throws IOException {
    store.put("d/file", Payload.of(data), WriteCondition.none());
    return new ObjectSeekableStream(store, "d/file", data.length, "ckpt://bucket/d/file");
  }

  @Test
  void aNullBufferIsRefusedAtTheStartAtTheEndAndOnAnEmptyObject() throws IOException {
    try (ObjectSeekableStream in = open(DATA)) {
      assertThrows(NullPointerException.class, () -> in.read(null, 0, 10));
      in.seek(DATA.length);
      assertThrows(NullPointerException.class, () -> in.read(null, 0, 10));
    }
    try (ObjectSeekableStream in = open(new byte[0])) {
      assertThrows(NullPointerException.class, () -> in.read(null, 0, 10));
    }
    assertEquals(0, store.counts().of(S3Operation.GET), "refused before any GET: " + store.counts());
  }

  @Test
  void aRangeOutsideTheBufferIsRefused() throws IOException {
    byte[] b = new byte[4];
    try (ObjectSeekableStream in = open(DATA)) {
      assertThrows(IndexOutOfBoundsException.class, () -> in.read(b, -1, 2));
      assertThrows(IndexOutOfBoundsException.class, () -> in.read(b, 0, 5));
      assertThrows(IndexOutOfBoundsException.class, () -> in.read(b, 3, 2));
      assertEquals(0, in.getPos());
      // a valid read still works after the refusals
      assertEquals(4, in.read(b, 0, 4));
      assertArrayEquals("0123".getBytes(StandardCharsets.US_ASCII), b);
      assertEquals(4, in.getPos());
      assertEquals(0, in.read(b, 4, 0), "a zero-length read at the buffer's end");
    }
  }
}
