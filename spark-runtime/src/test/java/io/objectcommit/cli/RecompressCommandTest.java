package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.TestTags;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code objectcommit recompress} on local files: what it prints, exit codes, usage errors naming the option. */
@Tag(TestTags.COMMAND)
class RecompressCommandTest {

  @TempDir
  Path dir;

  private static final byte[] TEXT = "one\ntwo\nthree\nno newline at the end".getBytes(StandardCharsets.US_ASCII);

  private Path gz() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(b)) {
      out.write(TEXT);
    }
    return Files.write(dir.resolve("x.gz"), b.toByteArray());
  }

  @Test
  void recompressesBesideAndPrintsTheCounts() throws IOException {
    Path src = gz();
    CommandRun dry = CommandRun.of("recompress", src.toUri().toString(), "--to", "bgzf", "--dry-run");
    assertEquals(0, dry.code, dry.err);
    assertTrue(dry.out.startsWith("Dry run: would recompress " + src.toUri() + " (gzip, "), dry.out);
    assertFalse(Files.exists(dir.resolve("x.bgz")));

    CommandRun run = CommandRun.of("recompress", src.toUri().toString(), "--to", "bgzf");
    assertEquals(0, run.code, run.err);
    CRC32 crc = new CRC32();
    crc.update(TEXT);
    assertTrue(run.out.contains(String.format(Locale.ROOT, "uncompressed: %d bytes, 4 lines, CRC-32 %08x",
        TEXT.length, crc.getValue())), run.out);
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(Files.readAllBytes(dir.resolve("x.bgz"))))) {
      assertArrayEquals(TEXT, in.readAllBytes());
    }

    CommandRun again = CommandRun.of("recompress", dir.resolve("x.bgz").toUri().toString(), "--to", "bgzf");
    assertEquals(0, again.code, again.err);
    assertTrue(again.out.contains("BGZF already") && again.out.contains("nothing to do"), again.out);

    CommandRun exists = CommandRun.of("recompress", src.toUri().toString(), "--to", "bgzf");
    assertEquals(1, exists.code);
    assertTrue(exists.err.contains("x.bgz") && exists.err.contains("--overwrite"), exists.err);
  }

  @Test
  void usageErrorsNameTheOption() throws IOException {
    Path src = gz();
    CommandRun noTo = CommandRun.of("recompress", src.toUri().toString());
    assertEquals(2, noTo.code);
    assertTrue(noTo.err.contains("--to"), noTo.err);
    CommandRun bad = CommandRun.of("recompress", src.toUri().toString(), "--to", "lz4");
    assertEquals(2, bad.code);
    assertTrue(bad.err.contains("--to lz4"), bad.err);
    CommandRun zstdInPlace = CommandRun.of("recompress", src.toUri().toString(), "--to", "zstd", "--in-place");
    assertEquals(2, zstdInPlace.code);
    assertTrue(zstdInPlace.err.contains("--in-place"), zstdInPlace.err);
    CommandRun prefix = CommandRun.of("recompress", "s3a://bucket/dir/", "--to", "zstd");
    assertEquals(2, prefix.code);
    assertTrue(prefix.err.contains("s3a://bucket/dir/"), prefix.err);
  }
}
