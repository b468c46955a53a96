package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.files.GzipIndex;
import io.objectcommit.testsupport.TestTags;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code objectcommit gzip-index} on a local file: the index beside it, what it prints, usage errors. */
@Tag(TestTags.COMMAND)
class GzipIndexCommandTest {

  @TempDir
  Path dir;

  @Test
  void writesTheIndexBesideTheFile() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 400_000; i++) {
      text.append("line ").append(i * 7919L % 1_000_003).append('\n');
    }
    byte[] content = text.toString().getBytes(StandardCharsets.US_ASCII);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(b)) {
      out.write(content);
    }
    Path gz = Files.write(dir.resolve("x.gz"), b.toByteArray());

    CommandRun run = CommandRun.of("gzip-index", gz.toUri().toString(), "-D",
        "fs.objectcommit.codecs.gzip.index.spacing=1048576");
    assertEquals(0, run.code, run.err);
    Path index = dir.resolve(".x.gz.gzindex");
    assertTrue(Files.exists(index), run.out);
    GzipIndex read = GzipIndex.CODEC.fromBytes(Files.readAllBytes(index), index.toString());
    assertEquals(content.length, read.uncompressedLength);
    assertTrue(run.out.startsWith("Indexed file:"), run.out);
    assertTrue(run.out.contains("/x.gz: " + read.checkpoints.size() + " checkpoint(s) every 1048576 bytes (1.0 MiB)"
        + " of " + content.length + " bytes"), run.out);
    assertTrue(read.checkpoints.size() >= 3, run.out);

    CommandRun none = CommandRun.of("gzip-index");
    assertEquals(2, none.code);
    assertTrue(none.err.contains("expected the gzip file"), none.err);
    CommandRun missing = CommandRun.of("gzip-index", dir.resolve("missing.gz").toUri().toString());
    assertEquals(1, missing.code);
    assertTrue(missing.err.contains("missing.gz"), missing.err);
  }
}
