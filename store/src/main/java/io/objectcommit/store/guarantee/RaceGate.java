package io.objectcommit.store.guarantee;

import io.objectcommit.store.Payload;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds the bodies of one race round's writers until every writer's body has been asked for, so that a lost race
 * shows whatever the machine's timing. A store that checks a write's condition when the request head arrives and
 * writes once the body is in (S3Proxy 4.1.0) asks for a body only after that writer passed the check (the client's
 * {@code Expect: 100-continue}): held here, every writer passes the check before any of them writes, and such a
 * store lets several win in every round. An atomic store decides when it writes and still lets one win.
 *
 * <p>An SDK that reads a body more than once (SDK v2 signs it first on plain HTTP) meets the gate at each reading:
 * the k-th reading of each writer waits for the other writers' k-th. A store that takes the requests one at a time
 * never lets the others reach the gate: the first hold that times out opens the gate for the rest of the check
 * ({@code opened}), so such a store costs one hold per check.
 */
final class RaceGate {

  /** The longest a body is held for the other writers. */
  static final long HOLD_MILLIS = 1_000;

  private final int writers;
  private final AtomicBoolean opened;
  private final Map<Integer, CountDownLatch> readings = new ConcurrentHashMap<>();

  /**
   * @param writers the round's writers, each given one {@link #body}
   * @param opened shared by the rounds of one check: set once a hold timed out, after which nothing is held
   */
  RaceGate(int writers, AtomicBoolean opened) {
    this.writers = writers;
    this.opened = opened;
  }

  /** One writer's body: {@code bytes}, each reading of it held at the gate before its first byte. */
  Payload body(byte[] bytes) {
    AtomicInteger reading = new AtomicInteger();
    return Payload.of(() -> new HeldStream(bytes, reading.getAndIncrement()), bytes.length);
  }

  private void arrive(int reading) throws InterruptedIOException {
    if (opened.get()) {
      return;
    }
    CountDownLatch all = readings.computeIfAbsent(reading, k -> new CountDownLatch(writers));
    all.countDown();
    try {
      if (!all.await(HOLD_MILLIS, TimeUnit.MILLISECONDS)) {
        opened.set(true);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while holding a racing write's body");
    }
  }

  /** A body whose first read waits at the gate. */
  private final class HeldStream extends FilterInputStream {
    private final int reading;
    private boolean arrived;

    HeldStream(byte[] bytes, int reading) {
      super(new ByteArrayInputStream(bytes));
      this.reading = reading;
    }

    private void arriveOnce() throws InterruptedIOException {
      if (!arrived) {
        arrived = true;
        arrive(reading);
      }
    }

    @Override
    public int read() throws IOException {
      arriveOnce();
      return super.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      arriveOnce();
      return super.read(b, off, len);
    }
  }
}
