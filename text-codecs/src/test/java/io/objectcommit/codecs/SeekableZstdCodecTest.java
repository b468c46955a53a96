package io.objectcommit.codecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
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
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Test;

/** How Hadoop finds the seekable zstd codec, its settings, and reading without splits. */
class SeekableZstdCodecTest {

  private static Configuration conf(String claimZst) {
    Configuration conf = new Configuration(false);
    conf.set(CodecConstants.HADOOP_CODECS, CodecConstants.BGZF_CODEC_CLASS + "," + CodecConstants.ZSTD_CODEC_CLASS);
    if (claimZst != null) {
      conf.set(CodecConstants.ZSTD_CLAIM_ZST, claimZst);
    }
    return conf;
  }

  @Test
  void takesSeekableZstByDefaultAndZstOnlyWhenAsked() {
    CompressionCodecFactory byDefault = new CompressionCodecFactory(conf(null));
    assertTrue(byDefault.getCodec(new Path("/d/part-0.seekable.zst")) instanceof SeekableZstdCodec);
    CompressionCodec zst = byDefault.getCodec(new Path("/d/part-0.zst"));
    assertTrue(!(zst instanceof SeekableZstdCodec), "Hadoop's codec keeps .zst by default: " + zst);
    assertTrue(byDefault.getCodec(new Path("/d/part-0.bgz")) instanceof BgzfCodec, "beside BGZF");

    CompressionCodecFactory claiming = new CompressionCodecFactory(conf("true"));
    assertTrue(claiming.getCodec(new Path("/d/part-0.zst")) instanceof SeekableZstdCodec);
    assertTrue(claiming.getCodec(new Path("/d/part-0.seekable.zst")) instanceof SeekableZstdCodec);
    assertEquals(".zst", claiming.getCodec(new Path("/d/part-0.zst")).getDefaultExtension());
    assertEquals(SeekableZstdCodec.class, byDefault.getCodecClassByName("seekablezstd"));
  }

  @Test
  void aBadSettingNamesItsKey() {
    Configuration claim = conf("yes");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReflectionUtils.newInstance(SeekableZstdCodec.class, claim));
    assertTrue(e.getMessage().contains(CodecConstants.ZSTD_CLAIM_ZST), e.getMessage());
    for (String level : new String[] {"0", "23", "fast"}) {
      Configuration c = conf(null);
      c.set(CodecConstants.ZSTD_LEVEL, level);
      e = assertThrows(IllegalArgumentException.class, () -> ReflectionUtils.newInstance(SeekableZstdCodec.class, c));
      assertTrue(e.getMessage().contains(CodecConstants.ZSTD_LEVEL), e.getMessage());
    }
    for (String size : new String[] {"1000", "8388609", "1m"}) {
      Configuration c = conf(null);
      c.set(CodecConstants.ZSTD_FRAME_SIZE, size);
      e = assertThrows(IllegalArgumentException.class, () -> ReflectionUtils.newInstance(SeekableZstdCodec.class, c));
      assertTrue(e.getMessage().contains(CodecConstants.ZSTD_FRAME_SIZE), e.getMessage());
    }
  }

  @Test
  void theLevelAndFrameSizeSettingsChangeTheOutput() throws IOException {
    java.util.Random random = new java.util.Random(40);
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 3_000_000) {
      sb.append(random.nextInt(1000)).append(" some words ").append(random.nextInt(100_000)).append('\n');
    }
    byte[] text = sb.toString().getBytes(StandardCharsets.UTF_8);
    byte[] byDefault = compress(ReflectionUtils.newInstance(SeekableZstdCodec.class, conf(null)), text);
    Configuration strong = conf(null);
    strong.set(CodecConstants.ZSTD_LEVEL, "19");
    assertTrue(compress(ReflectionUtils.newInstance(SeekableZstdCodec.class, strong), text).length
        < byDefault.length, "level 19 compresses more than 3");
    Configuration small = conf(null);
    small.set(CodecConstants.ZSTD_FRAME_SIZE, "65536");
    byte[] smallFrames = compress(ReflectionUtils.newInstance(SeekableZstdCodec.class, small), text);
    // the frame count is in the seek table's footer
    assertEquals((text.length + 65535) / 65536, le32(smallFrames, smallFrames.length - 9));
    assertEquals(3, le32(byDefault, byDefault.length - 9), "three frames of 1 MiB by default");
  }

  @Test
  void readingWithoutSplitsIsZstdStreamReading() throws IOException {
    byte[] text = "line\n".repeat(300_000).getBytes(StandardCharsets.UTF_8);
    SeekableZstdCodec codec = ReflectionUtils.newInstance(SeekableZstdCodec.class, conf(null));
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    try (OutputStream out = new ZstdOutputStream(plain)) {
      out.write(text);
    }
    for (byte[] file : new byte[][] {compress(codec, text), plain.toByteArray()}) {
      try (InputStream in = codec.createInputStream(new ByteArrayInputStream(file))) {
        assertArrayEquals(text, in.readAllBytes());
      }
      try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(file))) {
        assertArrayEquals(text, in.readAllBytes());
      }
    }
  }

  private static long le32(byte[] b, int i) {
    return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24;
  }

  private static byte[] compress(CompressionCodec codec, byte[] text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = codec.createOutputStream(bytes)) {
      out.write(text);
    }
    return bytes.toByteArray();
  }
}
