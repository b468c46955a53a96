package io.objectcommit.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PayloadTest {

  @Test
  void fileRangesReadExactlyTheirBytesAgainAndAgain(@TempDir Path dir) throws IOException {
    byte[] data = new byte[1000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) i;
    }
    Path f = dir.resolve("f");
    Files.write(f, data);
    Payload range = Payload.of(f, 300, 500);
    assertEquals(500, range.length());
    for (int round = 0; round < 2; round++) {
      try (InputStream in = range.open()) {
        assertArrayEquals(Arrays.copyOfRange(data, 300, 800), in.readAllBytes());
      }
    }
    try (InputStream in = Payload.of(f, 900, 100).open()) {
      assertArrayEquals(Arrays.copyOfRange(data, 900, 1000), in.readAllBytes());
    }
    try (InputStream in = Payload.of(f).open()) {
      assertArrayEquals(data, in.readAllBytes());
    }
    assertEquals(0, ((Payload.FilePayload) Payload.of(f)).offset());
    assertThrows(IllegalArgumentException.class, () -> Payload.of(f, -1, 5));
  }

  @Test
  void aSourceIsOpenedAgainForEachReadingAndNeedsItsLength() throws IOException {
    byte[] data = {1, 2, 3};
    AtomicInteger opened = new AtomicInteger();
    Payload p = Payload.of(() -> {
      opened.incrementAndGet();
      return new ByteArrayInputStream(data);
    }, data.length);
    assertTrue(p.isRepeatable());
    assertEquals(3, p.length());
    for (int round = 0; round < 2; round++) {
      try (InputStream in = p.open()) {
        assertArrayEquals(data, in.readAllBytes());
      }
    }
    assertEquals(2, opened.get());
    assertThrows(IllegalArgumentException.class, () -> Payload.of(() -> new ByteArrayInputStream(data), -1));
  }
}
