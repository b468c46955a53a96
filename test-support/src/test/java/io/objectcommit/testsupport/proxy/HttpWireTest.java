package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpWireTest {

  private static HttpInput in(String s) {
    return in(s, 64 * 1024);
  }

  private static HttpInput in(String s, int bufferSize) {
    return new HttpInput(new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1)), bufferSize);
  }

  @Test
  void readsAHeadAndItsFraming() throws IOException {
    HttpInput in = in("PUT /b/k?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\nabc");
    HttpHead h = HttpWire.readHead(in);
    assertEquals("PUT", h.method());
    assertEquals("/b/k?x=1", h.target());
    assertEquals(3, h.contentLength());
    assertEquals("100-continue", h.get("expect"));
    assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), HttpWire.readBody(in, h, false));
    assertNull(HttpWire.readHead(in), "clean end of stream between requests");
  }

  @Test
  void copiesChunkedBodiesVerbatimAndDecodesThem() throws IOException {
    String chunked = "5;chunk-signature=ab\r\nhello\r\n6\r\n world\r\n0\r\nx-trailer: 1\r\n\r\n";
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    HttpWire.copyChunked(in(chunked + "NEXT"), copy);
    assertEquals(chunked, copy.toString(StandardCharsets.ISO_8859_1));
    assertEquals("hello world", new String(HttpWire.readChunked(in(chunked)), StandardCharsets.US_ASCII));
  }

  @Test
  void readsLinesAcrossBufferRefillsThenTheBodyThatFollows() throws IOException {
    // a 3-byte buffer: every line and the body span several refills; a CR alone is kept, CRLF and LF end lines
    HttpInput in = in("GET /b/k HTTP/1.1\r\nX-A: a\rb\nX-Long: " + "v".repeat(40) + "\r\n\r\nbody", 3);
    assertEquals("GET /b/k HTTP/1.1", HttpWire.readLine(in, false));
    assertEquals("X-A: a\rb", HttpWire.readLine(in, false));
    assertEquals("X-Long: " + "v".repeat(40), HttpWire.readLine(in, false));
    assertEquals("", HttpWire.readLine(in, false));
    byte[] body = new byte[4];
    assertEquals(4, in.readNBytes(body, 0, 4));
    assertEquals("body", new String(body, StandardCharsets.ISO_8859_1));
    assertNull(HttpWire.readLine(in, true), "clean end of stream");
  }

  @Test
  void endsInsideALineAndOverlongLinesAreErrors() {
    assertThrows(EOFException.class, () -> HttpWire.readLine(in("HTTP/1.1 200", 4), true));
    assertThrows(EOFException.class, () -> HttpWire.readLine(in(""), false));
    IOException e = assertThrows(IOException.class, () -> HttpWire.readLine(in("x".repeat(70_000) + "\n"), false));
    assertFalse(e instanceof EOFException, "an overlong line is not an end of stream: " + e);
  }

  @Test
  void truncatedBodyIsAnError() {
    assertThrows(EOFException.class, () -> HttpWire.copyExactly(in("ab"), new ByteArrayOutputStream(), 3));
  }

  @Test
  void staleResponseHonoursRanges() throws IOException {
    assertArrayEquals(new long[] {2, 4}, StaleResponse.parseRange("bytes=2-4", 10));
    assertArrayEquals(new long[] {7, 9}, StaleResponse.parseRange("bytes=-3", 10));
    assertArrayEquals(new long[] {5, 9}, StaleResponse.parseRange("bytes=5-", 10));
    assertArrayEquals(new long[] {5, 9}, StaleResponse.parseRange("bytes=5-100", 10));
    assertNull(StaleResponse.parseRange(null, 10));
    StoredObject o = new StoredObject("0123456789".getBytes(StandardCharsets.US_ASCII), Map.of("etag", "\"v1\""));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(206, StaleResponse.send(o, false, "bytes=2-4", false, out));
    String s = out.toString(StandardCharsets.ISO_8859_1);
    assertEquals("234", s.substring(s.indexOf("\r\n\r\n") + 4));
    assertEquals(true, s.contains("Content-Range: bytes 2-4/10"));
  }

  @Test
  void countsSnapshotAndDifference() {
    RequestCounter c = new RequestCounter();
    S3Request put = S3Request.classify("PUT", "/b/k", null);
    S3Request head = S3Request.classify("HEAD", "/b/k", null);
    c.record(put, 200, null, null, null);
    c.record(head, 404, null, null, null);
    RequestCounts before = c.snapshot();
    c.record(head, 404, "https://audit.example.org/hadoop/1/op_head/s-1/?op=op_head", "aws-sdk-java/1 objectcommit", null);
    c.record(head, 200, null, null, "bytes=0-9");
    RequestCounts after = c.snapshot();
    assertEquals(4, after.total());
    assertEquals(2, after.of(S3Operation.HEAD, 404));
    assertEquals(1, after.succeeded(S3Operation.HEAD));
    assertEquals("total=2 HEAD=2(200:1,404:1)", after.minus(before).toString());
    assertEquals(4, c.seen().size());
    assertEquals(Map.of("op", "op_head"), c.seen().get(2).referrerParams());
    assertEquals("bytes=0-9", c.seen().get(3).range());
    assertEquals(10, c.seen().get(3).requestedBytes(100));
    assertEquals(100, c.seen().get(0).requestedBytes(100), "no Range: the whole object");
    c.reset();
    assertEquals(0, c.snapshot().total());
    assertEquals(0, c.seen().size());
  }
}
