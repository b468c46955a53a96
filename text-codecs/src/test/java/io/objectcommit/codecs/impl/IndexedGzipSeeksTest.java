package io.objectcommit.codecs.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.GzipIndexes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.spark.rdd.InputFileBlockHolder$;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The splits of an indexed plain gzip file never seek their stream back: on S3A (its default input policy) one
 * backward seek turns every later read into a ranged GET of its own, hundreds per split, which the compressed-text
 * benchmark found in the first split (it had read the file's header, then sought back to the first checkpoint).
 */
class IndexedGzipSeeksTest {

  @TempDir
  Path dir;

  @Test
  void noSplitSeeksBack() throws IOException {
    byte[] content = SplitReading.text(30, 6_000_000, 2_000, "\n");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(content);
    }
    byte[] gz = bytes.toByteArray();
    Path file = Files.write(dir.resolve("t.gz"), gz);
    Configuration conf = SplitReading.conf(true);
    conf.set(CodecConstants.GZIP_INDEX, "use");
    conf.setInt(CodecConstants.GZIP_INDEX_SPACING, CodecConstants.GZIP_INDEX_MIN_SPACING);
    GzipIndexes.write(new org.apache.hadoop.fs.Path(file.toUri()), conf);
    CompressionCodec gzip = ReflectionUtils.newInstance(GzipCodec.class, conf);

    long split = gz.length / 4L + 1;
    long decoded = 0;
    try {
      for (long start = 0; start < gz.length; start += split) {
        long end = Math.min(gz.length, start + split);
        InputFileBlockHolder$.MODULE$.set(file.toUri().toString(), start, end - start);
        SeekableBytes in = new SeekableBytes(gz);
        try (InputStream s = SplitStreams.open(in, gzip.createDecompressor(), start, end, gzip, conf)) {
          byte[] buf = new byte[1 << 16];
          for (int n; (n = s.read(buf)) >= 0; ) {
            decoded += n;
          }
        }
        assertEquals(List.of(), in.backward, "backward seeks of the split at " + start);
      }
    } finally {
      InputFileBlockHolder$.MODULE$.unset();
    }
    assertTrue(decoded >= content.length, "the splits decoded " + decoded + " of " + content.length + " bytes");
  }
}
