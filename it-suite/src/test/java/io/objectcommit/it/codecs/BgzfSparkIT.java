package io.objectcommit.it.codecs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.objectcommit.codecs.BgzfCodec;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;

/**
 * BGZF text through Spark ({@link SplittableTextSparkScenarios}): the codec's default blocks, checked against
 * java.util.zip; a plain gzip file under the opted-in {@code .gz} read whole.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class BgzfSparkIT extends SplittableTextSparkScenarios {

  @Override
  String format() {
    return "BGZF";
  }

  @Override
  String codecClass() {
    return CodecConstants.BGZF_CODEC_CLASS;
  }

  @Override
  String extension() {
    return CodecConstants.BGZF_EXTENSION;
  }

  @Override
  Path writeSplittable(Path file, byte[] content) throws IOException {
    try (OutputStream out = new BgzfCodec().createOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
    return file;
  }

  @Override
  byte[] decompress(InputStream in) throws IOException {
    try (InputStream gzip = new GZIPInputStream(in)) {
      return gzip.readAllBytes();
    }
  }

  @Override
  String claimKey() {
    return CodecConstants.BGZF_CLAIM_GZ;
  }

  @Override
  String plainExtension() {
    return CodecConstants.GZ_EXTENSION;
  }

  @Override
  void writePlain(Path file, byte[] content) throws IOException {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
  }

  /** Every block's header carries the {@code BC} extra field with the block's size. */
  @Override
  void assertLayout(byte[] bytes, String name) {
    assertEquals('B', bytes[12], "a BGZF header (BC field) in " + name);
    assertEquals('C', bytes[13], "a BGZF header (BC field) in " + name);
  }
}
