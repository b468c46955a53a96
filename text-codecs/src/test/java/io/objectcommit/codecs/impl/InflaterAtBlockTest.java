package io.objectcommit.codecs.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gzip scanner finds every deflate block with the bytes decoded before it, and the JDK's inflater resumes at
 * each of them from its bit position and window alone ({@link InflaterAtBlock}), whatever the bit within the byte.
 */
class InflaterAtBlockTest {

  /** A block start the scanner reported, with a copy of its window. */
  private record Start(long bit, long out, byte[] window, int lastByte) {
  }

  private static List<Start> scan(byte[] gz, List<long[]> members, long[] total) throws IOException {
    List<Start> starts = new ArrayList<>();
    total[0] = DeflateScanner.scan(new ByteArrayInputStream(gz), new DeflateScanner.Listener() {
      @Override
      public boolean memberStart(long offset, long out, int lastByte, long spanCrc) {
        members.add(new long[] {offset, out});
        return false;
      }

      @Override
      public boolean blockStart(long bitOffset, long out, byte[] window, int windowLength, int lastByte,
          long spanCrc) {
        starts.add(new Start(bitOffset, out, Arrays.copyOf(window, windowLength), lastByte));
        return false;
      }

      @Override
      public void end(long out, long spanCrc) {
        // the test compares the bytes themselves
      }
    });
    return starts;
  }

  static byte[] content(long seed, int size) {
    byte[] text = SplitReading.text(seed, size, 200, "\n");
    byte[] noise = new byte[size / 10];
    new Random(seed).nextBytes(noise);
    return SplitReading.concat(text, noise, text);
  }

  static byte[] gzip(byte[] content, int level) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes) {
      {
        def.setLevel(level);
      }
    }) {
      out.write(content);
    }
    return bytes.toByteArray();
  }

  /**
   * Inflates from the block at {@code s}, as a split reader would: at most {@code limit} bytes after the window, or
   * to the member's end.
   */
  static byte[] resume(byte[] gz, Start s, int limit) throws DataFormatException {
    int bit = (int) (s.bit % 8);
    int first = (int) (s.bit / 8);
    byte[] prefix = InflaterAtBlock.prefix(s.window, s.window.length, bit, gz[first] & 0xff);
    int restFrom = bit == 0 ? first : first + 1;
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(SplitReading.concat(prefix, Arrays.copyOfRange(gz, restFrom, gz.length)));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[64 * 1024];
      while (!inf.finished() && out.size() < s.window.length + limit) {
        int n = inf.inflate(buf);
        if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
          throw new DataFormatException("inflater stopped");
        }
        out.write(buf, 0, n);
      }
      byte[] all = out.toByteArray();
      return Arrays.copyOfRange(all, s.window.length, Math.min(all.length, s.window.length + limit));
    } finally {
      inf.end();
    }
  }

  @ParameterizedTest(name = "level {0}")
  @ValueSource(ints = {1, 6, 9})
  void resumesAtEveryBlockOfAFileJavasGzipWrote(int level) throws Exception {
    byte[] content = content(40 + level, 3_000_000);
    byte[] gz = gzip(content, level);
    List<long[]> members = new ArrayList<>();
    long[] total = new long[1];
    List<Start> starts = scan(gz, members, total);
    assertEquals(content.length, total[0]);
    assertEquals(1, members.size());
    assertTrue(starts.size() >= 8, starts.size() + " blocks");
    for (Start s : starts) {
      assertEquals(content[(int) s.out - 1] & 0xff, s.lastByte);
      assertArrayEquals(Arrays.copyOfRange(content, (int) s.out - s.window.length, (int) s.out), s.window);
      byte[] rest = resume(gz, s, 100_000);
      int expected = (int) Math.min(100_000, content.length - s.out);
      assertArrayEquals(Arrays.copyOfRange(content, (int) s.out, (int) s.out + expected), rest, "block at bit " + s.bit);
    }
    Start middle = starts.get(starts.size() / 2);
    assertArrayEquals(Arrays.copyOfRange(content, (int) middle.out, content.length),
        resume(gz, middle, Integer.MAX_VALUE - DeflateScanner.WINDOW), "from the middle block to the end");
  }

  @Test
  void everyBitWithinAByteIsResumedFrom() throws Exception {
    // blocks at many positions: small ones, stored (level 0), fixed and dynamic codes mixed
    boolean[] seen = new boolean[8];
    for (int seed = 0; seed < 4; seed++) {
      byte[] content = content(seed, 100_000);
      for (int level : new int[] {0, 1, 9}) {
        Deflater def = new Deflater(level, true);
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        def.setInput(content);
        // flushes of varying sizes end blocks at many bit positions
        int pos = 0;
        Random r = new Random(seed);
        while (pos < content.length) {
          int n = Math.min(content.length - pos, 1 + r.nextInt(20_000));
          def.setInput(content, pos, n);
          pos += n;
          int m;
          while ((m = def.deflate(buf, 0, buf.length, r.nextBoolean() ? Deflater.SYNC_FLUSH : Deflater.NO_FLUSH)) > 0) {
            raw.write(buf, 0, m);
          }
        }
        def.finish();
        while (!def.finished()) {
          raw.write(buf, 0, def.deflate(buf));
        }
        def.end();
        byte[] gz = SplitReading.concat(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff},
            raw.toByteArray(), trailer(content));
        List<long[]> members = new ArrayList<>();
        long[] total = new long[1];
        for (Start s : scan(gz, members, total)) {
          seen[(int) (s.bit % 8)] = true;
          assertArrayEquals(Arrays.copyOfRange(content, (int) s.out, content.length),
              resume(gz, s, Integer.MAX_VALUE - DeflateScanner.WINDOW),
              "seed " + seed + " level " + level + " block at bit " + s.bit);
        }
        assertEquals(content.length, total[0]);
      }
    }
    for (int b = 0; b < 8; b++) {
      assertTrue(seen[b], "a block started at bit " + b + " of a byte: " + Arrays.toString(seen));
    }
  }

  @Test
  void membersAreFoundAndEachIsChecked() throws IOException {
    byte[] a = content(1, 100_000);
    byte[] b = content(2, 50_000);
    byte[] gz = SplitReading.concat(gzip(a, 6), gzip(b, 1));
    List<long[]> members = new ArrayList<>();
    long[] total = new long[1];
    scan(gz, members, total);
    assertEquals(a.length + b.length, total[0]);
    assertEquals(2, members.size());
    assertEquals(0, members.get(0)[0]);
    assertEquals(gzip(a, 6).length, members.get(1)[0]);
    assertEquals(a.length, members.get(1)[1]);

    byte[] damaged = gz.clone();
    damaged[gzip(a, 6).length - 6] ^= 1; // in the first member's CRC-32
    assertThrows(ZipException.class, () -> scan(damaged, new ArrayList<>(), new long[1]));
  }

  private static byte[] trailer(byte[] content) {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(content);
    long c = crc.getValue();
    int n = content.length;
    return new byte[] {(byte) c, (byte) (c >>> 8), (byte) (c >>> 16), (byte) (c >>> 24), (byte) n, (byte) (n >>> 8),
        (byte) (n >>> 16), (byte) (n >>> 24)};
  }
}
