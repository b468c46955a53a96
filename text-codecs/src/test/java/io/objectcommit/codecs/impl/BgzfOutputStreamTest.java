package io.objectcommit.codecs.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.codecs.BgzfCodec;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.junit.jupiter.api.Test;

/**
 * What the BGZF writer produces ({@link UnitOutputScenarios}): gzip that every reader reads, in blocks of at most
 * 64 KiB, with the EOF marker.
 */
class BgzfOutputStreamTest extends UnitOutputScenarios {

  @Override
  CompressionCodec codec() {
    return new BgzfCodec();
  }

  @Override
  String extension() {
    return ".bgz";
  }

  @Override
  int textSize() {
    return 300_000;
  }

  @Override
  byte[] decode(Path file) throws IOException {
    return SplitReading.gunzip(file);
  }

  @Override
  File tool() {
    return new File("/usr/bin/gzip");
  }

  @Override
  Path write(Path file, byte[] content, int unitData) throws IOException {
    return SplitReading.writeBgzf(file, content, unitData);
  }

  /** The blocks' data, the empty end-of-file marker left out. */
  @Override
  List<byte[]> units(byte[] file) throws IOException {
    List<Long> blocks = SplitReading.blockOffsets(file);
    List<byte[]> units = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      int end = i + 1 < blocks.size() ? blocks.get(i + 1).intValue() : file.length;
      Path f = dir.resolve("block" + i + ".gz");
      Files.write(f, Arrays.copyOfRange(file, blocks.get(i).intValue(), end));
      byte[] data = SplitReading.gunzip(f);
      if (data.length > 0) {
        units.add(data);
      }
    }
    return units;
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
}
