package io.objectcommit.it.codecs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.SeekableZstdCodec;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Tag;

/**
 * Seekable zstd text through Spark ({@link SplittableTextSparkScenarios}): frames of 64 KiB, checked against
 * zstd-jni's stream; a plain (stream-compressed) zstd file under the opted-in {@code .zst} read whole.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class ZstdSparkIT extends SplittableTextSparkScenarios {

  @Override
  String format() {
    return "seekable zstd";
  }

  @Override
  String codecClass() {
    return CodecConstants.ZSTD_CODEC_CLASS;
  }

  @Override
  String extension() {
    return CodecConstants.ZSTD_EXTENSION;
  }

  /** Frames of 64 KiB (the smallest the setting allows), so that the file has many frames. */
  @Override
  Path writeSplittable(Path file, byte[] content) throws IOException {
    Configuration conf = new Configuration(false);
    conf.setInt(CodecConstants.ZSTD_FRAME_SIZE, 65536);
    try (OutputStream out = ReflectionUtils.newInstance(SeekableZstdCodec.class, conf)
        .createOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
    return file;
  }

  @Override
  byte[] decompress(InputStream in) throws IOException {
    try (InputStream zstd = new ZstdInputStream(in)) {
      return zstd.readAllBytes();
    }
  }

  @Override
  String claimKey() {
    return CodecConstants.ZSTD_CLAIM_ZST;
  }

  @Override
  String plainExtension() {
    return CodecConstants.ZST_EXTENSION;
  }

  @Override
  void writePlain(Path file, byte[] content) throws IOException {
    try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(file))) {
      out.write(content);
    }
  }

  /** The seekable format's magic number ends the file: 0x8F92EAB1, little-endian. */
  @Override
  void assertLayout(byte[] bytes, String name) {
    int n = bytes.length;
    assertEquals(0xB1, bytes[n - 4] & 0xff, "seek table footer in " + name);
    assertEquals(0x8F, bytes[n - 1] & 0xff, "seek table footer in " + name);
  }
}
