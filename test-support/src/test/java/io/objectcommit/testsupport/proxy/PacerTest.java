package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

class PacerTest {

  /** What a client reading the proxy's output would see of the counter at the moment each write reaches it. */
  @Test
  void bytesToTheClientAreCountedBeforeTheyReachIt() throws IOException {
    LongAdder total = new LongAdder();
    List<Long> countedWhenReceived = new ArrayList<>();
    OutputStream client = new OutputStream() {
      @Override
      public void write(int b) {
        countedWhenReceived.add(total.sum());
      }

      @Override
      public void write(byte[] b, int off, int len) {
        countedWhenReceived.add(total.sum());
      }
    };
    try (OutputStream out = new Pacer(() -> 0, total).wrap(client)) {
      out.write(new byte[100], 0, 100);
      out.write(7);
    }
    assertEquals(List.of(100L, 101L), countedWhenReceived);
    assertEquals(101, total.sum());
  }

  @Test
  void bytesFromTheClientAreCountedAsRead() throws IOException {
    LongAdder total = new LongAdder();
    try (InputStream in = new Pacer(() -> 0, total).wrap(new ByteArrayInputStream(new byte[50]))) {
      assertEquals(50, in.read(new byte[64], 0, 64));
      assertEquals(-1, in.read());
    }
    assertEquals(50, total.sum());
  }

  @Test
  void aRateHoldsTheTransferToIt() throws IOException {
    LongAdder total = new LongAdder();
    long start = System.nanoTime();
    try (OutputStream out = new Pacer(() -> 100_000, total).wrap(OutputStream.nullOutputStream())) {
      out.write(new byte[20_000], 0, 20_000);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    // 20,000 bytes at 100,000 bytes per second cannot pass in less than 200 ms
    assertTrue(millis >= 195, "took " + millis + " ms");
  }
}
