package io.objectcommit.readcache.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A block's payload served from a mapped file or from the heap, and refused once released. */
class BlockViewTest {

  @TempDir
  Path tmp;

  @Test
  void aMappedPayloadIsReadWhereItLiesAndRefusedOnceReleased() throws Exception {
    byte[] file = new byte[64];
    for (int i = 0; i < file.length; i++) {
      file[i] = (byte) (200 + i);
    }
    Path p = Files.write(tmp.resolve("b.blk"), file);
    MappedByteBuffer mapped;
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
    }
    BlockView v = BlockView.of(mapped, 10, 40); // the payload: bytes 10 to 49
    assertEquals(40, v.length());
    assertEquals(210, v.get(0), "unsigned");
    byte[] out = new byte[8];
    v.copy(5, out, 2, 6);
    assertArrayEquals(new byte[] {0, 0, file[15], file[16], file[17], file[18], file[19], file[20]}, out);

    v.release();
    v.release(); // idempotent
    assertThrows(IllegalStateException.class, () -> v.get(0), "never a read of memory no longer mapped");
    assertThrows(IllegalStateException.class, () -> v.copy(0, out, 0, 1));
  }

  @Test
  void aFetchedPayloadIsTheHeapBytes() {
    byte[] data = {1, 2, (byte) 255};
    BlockView v = BlockView.of(data);
    assertEquals(3, v.length());
    assertEquals(255, v.get(2));
    byte[] out = new byte[2];
    v.copy(1, out, 0, 2);
    assertArrayEquals(new byte[] {2, (byte) 255}, out);
    v.release();
    assertThrows(IllegalStateException.class, () -> v.get(0), "released is released, wherever the bytes are");
  }
}
