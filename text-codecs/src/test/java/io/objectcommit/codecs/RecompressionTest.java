package io.objectcommit.codecs;

import static io.objectcommit.testsupport.proxy.S3Operation.DELETE;
import static io.objectcommit.testsupport.proxy.S3Operation.GET;
import static io.objectcommit.testsupport.proxy.S3Operation.HEAD;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_ABORT;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_COMPLETE;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_INITIATE;
import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_PART;
import static io.objectcommit.testsupport.proxy.S3Operation.PUT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdInputStream;
import io.objectcommit.codecs.Recompression.Format;
import io.objectcommit.codecs.Recompression.Options;
import io.objectcommit.codecs.RecompressionResult.Outcome;
import io.objectcommit.codecs.impl.SourceFormat;
import io.objectcommit.store.ForwardingObjectStore;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.RequestHook;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Recompression} against the in-memory store and local files: the target decompresses to exactly the source's
 * bytes, the requests are exactly those documented, conditions protect the source and the target.
 */
class RecompressionTest {

  private static final Configuration CONF = new Configuration(false);

  private InMemoryObjectStore store;
  private byte[] text;

  @TempDir
  Path dir;

  @BeforeEach
  void setUp() {
    store = InMemoryObjectStore.create("bucket");
    text = lines(20_000, 1);
  }

  /** Lines of varied length, the last one without a newline. */
  private static byte[] lines(int n, long seed) {
    Random r = new Random(seed);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(i).append(',');
      int len = r.nextInt(120);
      for (int j = 0; j < len; j++) {
        s.append((char) ('a' + r.nextInt(26)));
      }
      if (i < n - 1) {
        s.append('\n');
      }
    }
    return s.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(b)) {
      out.write(data);
    }
    return b.toByteArray();
  }

  /** Three gzip members, one after the other (as `cat a.gz b.gz c.gz`). */
  private static byte[] multiMemberGzip(byte[] data) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int third = data.length / 3;
    b.write(gzip(java.util.Arrays.copyOfRange(data, 0, third)));
    b.write(gzip(java.util.Arrays.copyOfRange(data, third, 2 * third)));
    b.write(gzip(java.util.Arrays.copyOfRange(data, 2 * third, data.length)));
    return b.toByteArray();
  }

  private static byte[] bzip2(byte[] data) throws IOException {
    BZip2Codec codec = ReflectionUtils.newInstance(BZip2Codec.class, new Configuration(false));
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (CompressionOutputStream out = codec.createOutputStream(b)) {
      out.write(data);
    }
    return b.toByteArray();
  }

  private static byte[] gunzip(byte[] data) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
      return in.readAllBytes();
    }
  }

  private static byte[] unzstd(byte[] data) throws IOException {
    try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(data))) {
      return in.readAllBytes();
    }
  }

  private static long crc(byte[] data) {
    CRC32 c = new CRC32();
    c.update(data);
    return c.getValue();
  }

  private static long lineCount(byte[] data) {
    long n = 0;
    for (byte b : data) {
      if (b == '\n') {
        n++;
      }
    }
    return n + (data.length > 0 && data[data.length - 1] != '\n' ? 1 : 0);
  }

  /** The seek table's footer magic closes a seekable zstd file. */
  private static boolean endsWithSeekTable(byte[] data) {
    int i = data.length - 4;
    return (data[i] & 0xff) == 0xb1 && (data[i + 1] & 0xff) == 0xea && (data[i + 2] & 0xff) == 0x92
        && (data[i + 3] & 0xff) == 0x8f;
  }

  private InMemoryRequestCounts since(InMemoryRequestCounts before) {
    return store.counts().minus(before);
  }

  private void assertRequests(InMemoryRequestCounts seen, long total, Object... opAndCount) {
    for (int i = 0; i < opAndCount.length; i += 2) {
      assertEquals(((Number) opAndCount[i + 1]).longValue(), seen.of((S3Operation) opAndCount[i]),
          opAndCount[i] + " in " + seen);
    }
    assertEquals(total, seen.total(), "requests: " + seen);
  }

  private void assertResult(RecompressionResult r, byte[] original, int sourceSize) {
    assertEquals(Outcome.RECOMPRESSED, r.outcome());
    assertEquals(original.length, r.uncompressedBytes());
    assertEquals(lineCount(original), r.lines());
    assertEquals(crc(original), r.crc32());
    assertEquals(sourceSize, r.sourceBytes());
  }

  @Test
  void gzipToBgzfBeside() throws IOException {
    byte[] gz = gzip(text);
    store.put("data/x.gz", Payload.of(gz), WriteCondition.none());
    InMemoryRequestCounts before = store.counts();

    RecompressionResult r = Recompression.recompress(store, "data/x.gz", Options.to(Format.BGZF), CONF);

    assertResult(r, text, gz.length);
    assertEquals("gzip", r.sourceFormat());
    assertEquals("s3://bucket/data/x.bgz", r.target());
    byte[] out = store.bytes("data/x.bgz");
    assertEquals(out.length, r.targetBytes());
    assertArrayEquals(text, gunzip(out));
    assertEquals(SourceFormat.BGZF, SourceFormat.detect(out, out.length));
    assertArrayEquals(gz, store.bytes("data/x.gz"), "the source is kept");
    // HEAD source, GET source, HEAD target (404, and the store's one bucket HEAD of its life that tells a missing
    // object from a missing bucket), PUT target (If-None-Match: *)
    InMemoryRequestCounts seen = since(before);
    assertRequests(seen, 5, HEAD, 2, GET, 1, S3Operation.BUCKET, 1, PUT, 1);
    assertEquals(1, seen.conditional(PUT));
  }

  @Test
  void multiMemberGzipToZstdDeletingTheSource() throws IOException {
    byte[] gz = multiMemberGzip(text);
    store.put("data/x.gz", Payload.of(gz), WriteCondition.none());
    InMemoryRequestCounts before = store.counts();

    RecompressionResult r = Recompression.recompress(store, "data/x.gz",
        Options.to(Format.ZSTD).deleteSource(true), CONF);

    assertResult(r, text, gz.length);
    assertEquals("s3://bucket/data/x.seekable.zst", r.target());
    byte[] out = store.bytes("data/x.seekable.zst");
    assertArrayEquals(text, unzstd(out));
    assertTrue(endsWithSeekTable(out));
    assertTrue(r.sourceDeleted());
    assertFalse(store.exists("data/x.gz"));
    InMemoryRequestCounts seen = since(before);
    assertRequests(seen, 6, HEAD, 2, GET, 1, S3Operation.BUCKET, 1, PUT, 1, DELETE, 1);
    assertEquals(1, seen.conditional(DELETE), "the source is deleted only if it is still the one read");
  }

  @Test
  void bzip2ToBgzfAndToZstd() throws IOException {
    byte[] bz = bzip2(text);
    store.put("x.bz2", Payload.of(bz), WriteCondition.none());

    RecompressionResult b = Recompression.recompress(store, "x.bz2", Options.to(Format.BGZF), CONF);
    assertResult(b, text, bz.length);
    assertEquals("bzip2", b.sourceFormat());
    assertArrayEquals(text, gunzip(store.bytes("x.bgz")));

    RecompressionResult z = Recompression.recompress(store, "x.bz2", Options.to(Format.ZSTD), CONF);
    assertResult(z, text, bz.length);
    assertArrayEquals(text, unzstd(store.bytes("x.seekable.zst")));
  }

  @Test
  void inPlaceReplacesTheGzipUnderItsEtag() throws IOException {
    byte[] gz = gzip(text);
    store.put("x.gz", Payload.of(gz), WriteCondition.none());
    InMemoryRequestCounts before = store.counts();

    RecompressionResult r = Recompression.recompress(store, "x.gz", Options.to(Format.BGZF).inPlace(true), CONF);

    assertResult(r, text, gz.length);
    assertEquals("s3://bucket/x.gz", r.target());
    byte[] out = store.bytes("x.gz");
    assertEquals(SourceFormat.BGZF, SourceFormat.detect(out, out.length));
    assertArrayEquals(text, gunzip(out));
    // HEAD, GET, PUT If-Match: no HEAD of a target, it is the source
    InMemoryRequestCounts seen = since(before);
    assertRequests(seen, 3, HEAD, 1, GET, 1, PUT, 1);
    assertEquals(1, seen.conditional(PUT));
  }

  @Test
  void inPlaceRefusedWhenTheSourceChangedMeanwhile() throws IOException {
    store.put("x.gz", Payload.of(gzip(text)), WriteCondition.none());
    byte[] theirs = gzip("written meanwhile\n".getBytes(StandardCharsets.US_ASCII));
    store.addHook(RequestHook.before(PUT, "x\\.gz", () -> store.put("x.gz", Payload.of(theirs),
        WriteCondition.none())));

    SourceChangedException e = assertThrows(SourceChangedException.class,
        () -> Recompression.recompress(store, "x.gz", Options.to(Format.BGZF).inPlace(true), CONF));

    assertTrue(e.getMessage().contains("s3://bucket/x.gz"), e.getMessage());
    assertTrue(e.getMessage().contains("--in-place"), e.getMessage());
    assertArrayEquals(theirs, store.bytes("x.gz"), "the concurrent overwrite is kept");
  }

  @Test
  void largeOutputIsAMultipartUploadWithTheConditionOnCompletion() throws IOException {
    // stored deflate blocks: the BGZF output is larger than the 5 MiB part, the gzip source much smaller
    byte[] big = lines(180_000, 2);
    assertTrue(big.length > 2 * CodecConstants.RECOMPRESS_MIN_PART_SIZE);
    byte[] gz = gzip(big);
    store.put("big.gz", Payload.of(gz), WriteCondition.none());
    Configuration conf = new Configuration(false);
    conf.setInt(CodecConstants.RECOMPRESS_PART_SIZE, CodecConstants.RECOMPRESS_MIN_PART_SIZE);
    conf.setInt(CodecConstants.BGZF_LEVEL, 0);
    InMemoryRequestCounts before = store.counts();

    RecompressionResult r = Recompression.recompress(store, "big.gz", Options.to(Format.BGZF).inPlace(true), conf);

    assertResult(r, big, gz.length);
    byte[] out = store.bytes("big.gz");
    assertArrayEquals(big, gunzip(out));
    long part = CodecConstants.RECOMPRESS_MIN_PART_SIZE;
    long parts = (out.length + part - 1) / part;
    assertTrue(parts >= 2, "parts: " + parts);
    InMemoryRequestCounts seen = since(before);
    assertRequests(seen, 2 + 1 + parts + 1, HEAD, 1, GET, 1, MULTIPART_INITIATE, 1, MULTIPART_PART, parts,
        MULTIPART_COMPLETE, 1, PUT, 0);
    assertEquals(1, seen.conditional(MULTIPART_COMPLETE));
  }

  @Test
  void refusedMultipartCompletionIsAbortedAndNamesTheObject() throws IOException {
    byte[] big = lines(120_000, 3);
    store.put("big.gz", Payload.of(gzip(big)), WriteCondition.none());
    Configuration conf = new Configuration(false);
    conf.setInt(CodecConstants.RECOMPRESS_PART_SIZE, CodecConstants.RECOMPRESS_MIN_PART_SIZE);
    conf.setInt(CodecConstants.BGZF_LEVEL, 0);
    store.addHook(RequestHook.before(MULTIPART_COMPLETE, "big\\.gz", () -> store.put("big.gz",
        Payload.of(gzip(text)), WriteCondition.none())));
    InMemoryRequestCounts before = store.counts();

    SourceChangedException e = assertThrows(SourceChangedException.class,
        () -> Recompression.recompress(store, "big.gz", Options.to(Format.BGZF).inPlace(true), conf));

    assertTrue(e.getMessage().contains("s3://bucket/big.gz"), e.getMessage());
    assertEquals(1, since(before).of(MULTIPART_ABORT));
    assertTrue(store.pendingUploads("").isEmpty(), "no upload left behind");
  }

  @Test
  void alreadyBgzfIsNothingToDo() throws IOException {
    store.put("x.gz", Payload.of(gzip(text)), WriteCondition.none());
    Recompression.recompress(store, "x.gz", Options.to(Format.BGZF).inPlace(true), CONF);
    byte[] bgzf = store.bytes("x.gz");
    InMemoryRequestCounts before = store.counts();

    RecompressionResult r = Recompression.recompress(store, "x.gz", Options.to(Format.BGZF), CONF);

    assertEquals(Outcome.ALREADY_BGZF, r.outcome());
    assertEquals("BGZF", r.sourceFormat());
    assertArrayEquals(bgzf, store.bytes("x.gz"));
    assertFalse(store.exists("x.bgz"));
    assertRequests(since(before), 2, HEAD, 1, GET, 1, PUT, 0);
  }

  @Test
  void existingTargetRefusedUnlessOverwriting() throws IOException {
    store.put("x.gz", Payload.of(gzip(text)), WriteCondition.none());
    store.put("x.bgz", Payload.of(new byte[] {1}), WriteCondition.none());

    FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
        () -> Recompression.recompress(store, "x.gz", Options.to(Format.BGZF), CONF));
    assertTrue(e.getMessage().contains("s3://bucket/x.bgz") && e.getMessage().contains("--overwrite"),
        e.getMessage());
    assertArrayEquals(new byte[] {1}, store.bytes("x.bgz"));

    Recompression.recompress(store, "x.gz", Options.to(Format.BGZF).overwrite(true), CONF);
    assertArrayEquals(text, gunzip(store.bytes("x.bgz")));
  }

  /** A connection dropped in the middle of the source: the read goes on from there, same ETag, exact output. */
  @Test
  void brokenReadResumesFromWhereItStopped() throws IOException {
    byte[] gz = gzip(text);
    store.put("x.gz", Payload.of(gz), WriteCondition.none());
    ObjectStore breaking = new ForwardingObjectStore(store) {
      private boolean broken;

      @Override
      public InputStream open(String key, long start, long end, String ifMatchEtag) throws IOException {
        InputStream in = super.open(key, start, end, ifMatchEtag);
        if (broken) {
          return in;
        }
        broken = true;
        return new java.io.FilterInputStream(in) {
          private long read;

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            if (read >= gz.length / 2) {
              throw new java.net.SocketException("Connection reset (planted)");
            }
            int n = super.read(b, off, (int) Math.min(len, gz.length / 2 - read));
            read += Math.max(n, 0);
            return n;
          }
        };
      }
    };
    InMemoryRequestCounts before = store.counts();

    RecompressionResult r = Recompression.recompress(breaking, "x.gz", Options.to(Format.ZSTD), CONF);

    assertResult(r, text, gz.length);
    assertArrayEquals(text, unzstd(store.bytes("x.seekable.zst")));
    InMemoryRequestCounts seen = since(before);
    assertRequests(seen, 6, HEAD, 2, GET, 2, S3Operation.BUCKET, 1, PUT, 1);
    assertEquals(2, seen.conditional(GET), "both GETs pinned to the ETag read");
  }

  @Test
  void dryRunWritesNothing() throws IOException {
    store.put("x.bz2", Payload.of(bzip2(text)), WriteCondition.none());
    InMemoryRequestCounts before = store.counts();

    RecompressionResult r = Recompression.recompress(store, "x.bz2", Options.to(Format.ZSTD).dryRun(true), CONF);

    assertEquals(Outcome.DRY_RUN, r.outcome());
    assertEquals("bzip2", r.sourceFormat());
    assertEquals("s3://bucket/x.seekable.zst", r.target());
    assertFalse(r.targetExists());
    assertEquals(java.util.List.of("x.bz2"), store.keys(""));
    // HEAD, a ranged GET of the first bytes, HEAD of the target (404, and the store's first bucket HEAD)
    assertRequests(since(before), 4, HEAD, 2, GET, 1, S3Operation.BUCKET, 1);
  }

  @Test
  void badSourcesAndOptionsNameThePathOrTheOption() throws IOException {
    store.put("plain.txt", Payload.of(text), WriteCondition.none());
    RecompressionException e = assertThrows(RecompressionException.class,
        () -> Recompression.recompress(store, "plain.txt", Options.to(Format.BGZF), CONF));
    assertTrue(e.getMessage().contains("s3://bucket/plain.txt"), e.getMessage());

    store.put("x.bz2", Payload.of(bzip2(text)), WriteCondition.none());
    RecompressionException bz = assertThrows(RecompressionException.class,
        () -> Recompression.recompress(store, "x.bz2", Options.to(Format.BGZF).inPlace(true), CONF));
    assertTrue(bz.getMessage().contains("--in-place"), bz.getMessage());

    store.put("empty.gz", Payload.of(new byte[0]), WriteCondition.none());
    RecompressionException empty = assertThrows(RecompressionException.class,
        () -> Recompression.recompress(store, "empty.gz", Options.to(Format.BGZF).dryRun(true), CONF));
    assertTrue(empty.getMessage().contains("s3://bucket/empty.gz"), empty.getMessage());

    assertThrows(java.io.FileNotFoundException.class,
        () -> Recompression.recompress(store, "missing.gz", Options.to(Format.BGZF), CONF));
    IllegalArgumentException o = assertThrows(IllegalArgumentException.class,
        () -> Options.to(Format.ZSTD).inPlace(true));
    assertTrue(o.getMessage().contains("--in-place"), o.getMessage());
    Configuration bad = new Configuration(false);
    bad.set(CodecConstants.RECOMPRESS_PART_SIZE, "1000");
    IllegalArgumentException k = assertThrows(IllegalArgumentException.class,
        () -> Recompression.recompress(store, "x.bz2", Options.to(Format.BGZF), bad));
    assertTrue(k.getMessage().contains(CodecConstants.RECOMPRESS_PART_SIZE), k.getMessage());
  }

  @Test
  void localFiles(@TempDir Path tmp) throws IOException {
    byte[] gz = multiMemberGzip(text);
    Path src = tmp.resolve("x.gz");
    Files.write(src, gz);

    RecompressionResult z = Recompression.recompress(src, Options.to(Format.ZSTD), CONF);
    assertResult(z, text, gz.length);
    assertArrayEquals(text, unzstd(Files.readAllBytes(tmp.resolve("x.seekable.zst"))));
    assertThrows(FileAlreadyExistsException.class, () -> Recompression.recompress(src, Options.to(Format.ZSTD),
        CONF));

    RecompressionResult b = Recompression.recompress(src, Options.to(Format.BGZF).inPlace(true), CONF);
    assertResult(b, text, gz.length);
    byte[] out = Files.readAllBytes(src);
    assertEquals(SourceFormat.BGZF, SourceFormat.detect(out, out.length));
    assertArrayEquals(text, gunzip(out));
    assertEquals(Outcome.ALREADY_BGZF, Recompression.recompress(src, Options.to(Format.BGZF), CONF).outcome());
    try (var names = Files.list(tmp)) {
      assertEquals(2, names.count(), "no temporary file left");
    }
  }

  /** A stream that says nothing is available (as a network stream at a member boundary) still gets every member. */
  @Test
  void multiMemberGzipReadWholeFromAStreamWithNothingAvailable() throws IOException {
    byte[] gz = multiMemberGzip(text);
    InputStream network = new ByteArrayInputStream(gz) {
      @Override
      public synchronized int available() {
        return 0;
      }

      @Override
      public synchronized int read(byte[] b, int off, int len) {
        // short reads ending exactly at member boundaries are the worst case: deliver small pieces
        return super.read(b, off, Math.min(len, 7));
      }
    };
    try (InputStream in = SourceFormat.GZIP.decompress(network, CONF)) {
      assertArrayEquals(text, in.readAllBytes());
    }
  }
}
