package io.objectcommit.codecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Test;

/** How Hadoop finds the codec, the settings, and reading without splits. */
class BgzfCodecTest {

  private static Configuration conf(String claimGz) {
    Configuration conf = new Configuration(false);
    conf.set(CodecConstants.HADOOP_CODECS, CodecConstants.BGZF_CODEC_CLASS);
    if (claimGz != null) {
      conf.set(CodecConstants.BGZF_CLAIM_GZ, claimGz);
    }
    return conf;
  }

  @Test
  void takesBgzByDefaultAndGzOnlyWhenAsked() {
    CompressionCodecFactory byDefault = new CompressionCodecFactory(conf(null));
    assertTrue(byDefault.getCodec(new Path("/d/part-0.bgz")) instanceof BgzfCodec);
    assertTrue(byDefault.getCodec(new Path("/d/part-0.gz")) instanceof GzipCodec, "gzip keeps .gz by default");

    CompressionCodecFactory claiming = new CompressionCodecFactory(conf("true"));
    assertTrue(claiming.getCodec(new Path("/d/part-0.gz")) instanceof BgzfCodec);
    assertEquals(".gz", claiming.getCodec(new Path("/d/part-0.gz")).getDefaultExtension());
    assertEquals(BgzfCodec.class, new CompressionCodecFactory(conf(null)).getCodecClassByName("bgzf"));
  }

  @Test
  void aBadSettingNamesItsKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReflectionUtils.newInstance(BgzfCodec.class, conf("yes")));
    assertTrue(e.getMessage().contains(CodecConstants.BGZF_CLAIM_GZ), e.getMessage());
    Configuration level = conf(null);
    level.set(CodecConstants.BGZF_LEVEL, "10");
    e = assertThrows(IllegalArgumentException.class, () -> ReflectionUtils.newInstance(BgzfCodec.class, level));
    assertTrue(e.getMessage().contains(CodecConstants.BGZF_LEVEL), e.getMessage());
  }

  @Test
  void theLevelSettingChangesTheOutput() throws IOException {
    byte[] text = "some text that compresses, some text that compresses\n".repeat(2000)
        .getBytes(StandardCharsets.UTF_8);
    Configuration stored = conf(null);
    stored.set(CodecConstants.BGZF_LEVEL, "0");
    assertTrue(compress(ReflectionUtils.newInstance(BgzfCodec.class, stored), text).length > text.length);
    assertTrue(compress(ReflectionUtils.newInstance(BgzfCodec.class, conf(null)), text).length < text.length / 10);
  }

  @Test
  void readingWithoutSplitsIsHadoopsGzipReading() throws IOException {
    byte[] text = "line\n".repeat(100_000).getBytes(StandardCharsets.UTF_8);
    BgzfCodec codec = ReflectionUtils.newInstance(BgzfCodec.class, conf(null));
    byte[] bgzf = compress(codec, text);
    for (CompressionCodec reader : new CompressionCodec[] {codec, ReflectionUtils.newInstance(GzipCodec.class,
        conf(null))}) {
      try (InputStream in = reader.createInputStream(new ByteArrayInputStream(bgzf))) {
        assertArrayEquals(text, in.readAllBytes(), reader.getClass().getSimpleName());
      }
    }
  }

  private static byte[] compress(CompressionCodec codec, byte[] text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = codec.createOutputStream(bytes)) {
      out.write(text);
    }
    return bytes.toByteArray();
  }
}
