package io.objectcommit.codecs.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.BgzfCodec;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the BGZF writer produces: gzip that every reader reads, in blocks of at most 64 KiB, with the EOF marker. */
class BgzfOutputStreamTest {

  @TempDir
  Path dir;

  private static byte[] content() {
    byte[] text = SplitReading.text(20, 300_000, 1_000, "\n");
    byte[] noise = new byte[200_000];
    new Random(21).nextBytes(noise);
    return SplitReading.concat(text, noise, text);
  }

  private Path write(byte[] content) throws IOException {
    Path file = dir.resolve("out.bgz");
    try (OutputStream out = new BgzfCodec().createOutputStream(Files.newOutputStream(file))) {
      out.write(content, 0, 1000);
      out.write(content[1000]);
      out.write(content, 1001, content.length - 1001);
    }
    return file;
  }

  @Test
  void javaUtilZipReadsWhatItWrites() throws IOException {
    byte[] content = content();
    assertArrayEquals(content, SplitReading.gunzip(write(content)));
  }

  @Test
  void gzipReadsWhatItWrites() throws Exception {
    File gzip = new File("/usr/bin/gzip");
    Assumptions.assumeTrue(gzip.canExecute(), "gzip not installed");
    byte[] content = content();
    Path file = write(content);
    Process p = new ProcessBuilder(gzip.getPath(), "-dc", file.toString()).redirectErrorStream(false).start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = p.getInputStream()) {
      in.transferTo(out);
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    assertArrayEquals(content, out.toByteArray());
  }

  @Test
  void blocksOfAtMost64KibEndedByTheEofMarker() throws IOException {
    byte[] content = content();
    byte[] file = Files.readAllBytes(write(content));
    List<Long> blocks = SplitReading.blockOffsets(file);
    int expectedDataBlocks = (content.length + BgzfFormat.WRITE_DATA_SIZE - 1) / BgzfFormat.WRITE_DATA_SIZE;
    assertTrue(blocks.size() >= expectedDataBlocks + 1, blocks.size() + " blocks");
    for (int i = 0; i < blocks.size(); i++) {
      long end = i + 1 < blocks.size() ? blocks.get(i + 1) : file.length;
      assertTrue(end - blocks.get(i) <= BgzfFormat.MAX_BLOCK_SIZE, "block " + i + " of " + (end - blocks.get(i)));
    }
    byte[] last = Arrays.copyOfRange(file, file.length - 28, file.length);
    assertArrayEquals(BgzfFormat.eofBlock(), last, "the end-of-file marker");
  }

  @Test
  void noBlockEndsWithACarriageReturnFollowedByMoreText() throws IOException {
    byte[] content = SplitReading.text(22, 5_000, 100, "\r");
    Path file = SplitReading.writeBgzf(dir.resolve("cr.bgz"), content, 64);
    byte[] bytes = Files.readAllBytes(file);
    List<Long> blocks = SplitReading.blockOffsets(bytes);
    int crAtEnd = 0;
    for (int i = 0; i + 1 < blocks.size(); i++) {
      byte[] one = Arrays.copyOfRange(bytes, blocks.get(i).intValue(), blocks.get(i + 1).intValue());
      Path f = dir.resolve("block" + i + ".gz");
      Files.write(f, one);
      byte[] data = SplitReading.gunzip(f);
      if (data.length > 0 && data[data.length - 1] == '\r' && i + 2 < blocks.size()) {
        crAtEnd++;
      }
    }
    assertEquals(0, crAtEnd, "blocks ending with CR before more text");
    assertArrayEquals(content, SplitReading.gunzip(file));
  }
}
