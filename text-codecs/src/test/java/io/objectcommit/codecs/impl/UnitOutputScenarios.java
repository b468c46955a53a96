package io.objectcommit.codecs.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every writer of a format of independent units (BGZF blocks, seekable zstd frames) guarantees: the format's
 * own library and its command-line tool read back exactly what was written, through writes of every shape (an
 * array, one byte, the rest); no unit but the last ends with a carriage return (a CR LF split across two units would
 * be read as two line ends by a split that starts between them). A format's test extends this and checks its
 * layout.
 */
abstract class UnitOutputScenarios {

  @TempDir
  Path dir;

  /** The codec whose output stream is tested, with its default settings. */
  abstract CompressionCodec codec();

  /** The file name extension of the format ({@code .bgz}, {@code .seekable.zst}). */
  abstract String extension();

  /** Text of this size, noise, then the text again: several units of each kind of content. */
  abstract int textSize();

  /** The whole content of {@code file}, decoded by the format's library. */
  abstract byte[] decode(Path file) throws IOException;

  /** The format's command-line tool ({@code /usr/bin/gzip}, {@code /usr/bin/zstd}); skipped where missing. */
  abstract File tool();

  /** Writes {@code content} in units of about {@code unitData} uncompressed bytes. */
  abstract Path write(Path file, byte[] content, int unitData) throws IOException;

  /** The decoded content of each unit of {@code file}, in order. */
  abstract List<byte[]> units(byte[] file) throws IOException;

  byte[] content() {
    byte[] text = SplitReading.text(20, textSize(), 1_000, "\n");
    byte[] noise = new byte[textSize() / 5];
    new Random(21).nextBytes(noise);
    return SplitReading.concat(text, noise, text);
  }

  /** Writes {@code content} through the codec: 1,000 bytes, one byte, the rest. */
  Path write(byte[] content) throws IOException {
    Path file = dir.resolve("out" + extension());
    try (OutputStream out = codec().createOutputStream(Files.newOutputStream(file))) {
      out.write(content, 0, 1000);
      out.write(content[1000]);
      out.write(content, 1001, content.length - 1001);
    }
    return file;
  }

  @Test
  void itsLibraryReadsWhatItWrites() throws IOException {
    byte[] content = content();
    assertArrayEquals(content, decode(write(content)));
  }

  @Test
  void itsCommandLineToolReadsWhatItWrites() throws Exception {
    File tool = tool();
    Assumptions.assumeTrue(tool.canExecute(), tool + " not installed");
    byte[] content = content();
    Path file = write(content);
    Process p = new ProcessBuilder(tool.getPath(), "-dc", file.toString()).start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = p.getInputStream()) {
      in.transferTo(out);
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    assertArrayEquals(content, out.toByteArray());
  }

  @Test
  void noUnitButTheLastEndsWithACarriageReturn() throws IOException {
    byte[] content = SplitReading.text(22, 5_000, 100, "\r");
    Path file = write(dir.resolve("cr" + extension()), content, 64);
    List<byte[]> units = units(Files.readAllBytes(file));
    assertTrue(units.size() > 10, units.size() + " units");
    int crAtEnd = 0;
    for (int i = 0; i + 1 < units.size(); i++) {
      byte[] data = units.get(i);
      if (data.length > 0 && data[data.length - 1] == '\r') {
        crAtEnd++;
      }
    }
    assertEquals(0, crAtEnd, "units ending with CR before more text");
    assertArrayEquals(content, decode(file));
  }
}
