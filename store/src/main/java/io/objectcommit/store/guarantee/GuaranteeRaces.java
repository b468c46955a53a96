package io.objectcommit.store.guarantee;

import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.FileAlreadyExistsException;

/**
 * The two races of the {@link GuaranteeCheck}: {@link StoreGuarantee#ATOMIC_EXCLUSIVE_CREATE} and
 * {@link StoreGuarantee#ATOMIC_COMPARE_AND_SWAP}. Each round releases {@link #writers} threads at once (a latch,
 * after every writer is ready) against one key, their bodies held until every writer's was asked for
 * ({@link RaceGate}); exactly one must win. Keys are under the check's prefix, and every key written is reported to
 * the check's tracker for its cleanup.
 */
final class GuaranteeRaces {

  /** Runs one write and remembers its key for the cleanup ({@code GuaranteeCheck#tracked}). */
  interface Tracker {
    ObjectInfo tracked(String key, GuaranteeCheck.Write w) throws IOException;
  }

  private final ObjectStore store;
  private final String prefix;
  private final int rounds;
  private final int casRounds;
  private final int writers;
  private final int raceBytes;
  private final Tracker tracker;
  /** Set once a {@link RaceGate} hold timed out: this check's later rounds hold nothing. */
  private final AtomicBoolean gateOpened = new AtomicBoolean();

  GuaranteeRaces(ObjectStore store, String prefix, int rounds, int casRounds, int writers, int raceBytes,
      Tracker tracker) {
    this.store = store;
    this.prefix = prefix;
    this.rounds = rounds;
    this.casRounds = casRounds;
    this.writers = writers;
    this.raceBytes = raceBytes;
    this.tracker = tracker;
  }

  /**
   * Each round, {@link #writers} exclusive creates of one fresh key race: exactly one must win.
   *
   * @param threads where the writers run (at least {@link #writers} at once)
   */
  Optional<String> exclusiveCreates(ExecutorService threads) throws IOException {
    int bad = 0;
    int worst = 1;
    for (int round = 0; round < rounds; round++) {
      String key = prefix + "race-create-" + round;
      int winners = race(threads, (i, gate) -> {
        try {
          return tracker.tracked(key, () -> store.createExclusive(key, gate.body(raceBytes("writer " + i))));
        } catch (FileAlreadyExistsException lost) {
          return null;
        }
      }).size();
      if (winners != 1) {
        bad++;
        worst = Math.max(worst, winners);
      }
    }
    return bad == 0 ? Optional.empty() : Optional.of(bad + " of " + rounds + " rounds of " + writers
        + " racing exclusive creates had " + (worst > 1 ? "several winners (up to " + worst + ")" : "no winner"));
  }

  /**
   * Each round, {@link #writers} If-Match writes from one ETag race: exactly one must win. The next round races
   * from the winner's ETag (one unconditional PUT only where a round had no single winner).
   *
   * @param threads where the writers run (at least {@link #writers} at once)
   */
  Optional<String> compareAndSwap(ExecutorService threads) throws IOException {
    String key = prefix + "race-cas";
    int bad = 0;
    int worst = 1;
    String etag = null;
    for (int round = 0; round < casRounds; round++) {
      if (etag == null) {
        Payload start = Payload.of(raceBytes("round " + round));
        etag = tracker.tracked(key, () -> store.put(key, start, WriteCondition.none())).etag();
      }
      String from = etag;
      int r = round;
      List<ObjectInfo> won = race(threads, (i, gate) -> {
        try {
          return store.replaceIfMatch(key, gate.body(raceBytes("round " + r + " writer " + i)), from);
        } catch (ObjectChangedException | FileNotFoundException lost) {
          return null;
        }
      });
      etag = won.size() == 1 ? won.get(0).etag() : null;
      if (won.size() != 1) {
        bad++;
        worst = Math.max(worst, won.size());
      }
    }
    return bad == 0 ? Optional.empty() : Optional.of(bad + " of " + casRounds + " rounds of " + writers
        + " racing If-Match writes had " + (worst > 1 ? "several winners (up to " + worst + ")" : "no winner"));
  }

  /** One racing write, its body from the round's gate: what was written, or null if refused. */
  interface Attempt {
    ObjectInfo run(int writer, RaceGate gate) throws IOException;
  }

  /** Runs the writers released at once; returns what the winners wrote. */
  private List<ObjectInfo> race(ExecutorService threads, Attempt attempt) throws IOException {
    CountDownLatch ready = new CountDownLatch(writers);
    CountDownLatch go = new CountDownLatch(1);
    RaceGate gate = new RaceGate(writers, gateOpened);
    List<Future<ObjectInfo>> results = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      int writer = i;
      Callable<ObjectInfo> c = () -> {
        ready.countDown();
        go.await();
        return attempt.run(writer, gate);
      };
      results.add(threads.submit(c));
    }
    List<ObjectInfo> winners = new ArrayList<>();
    try {
      ready.await();
      go.countDown();
      for (Future<ObjectInfo> f : results) {
        ObjectInfo won = f.get();
        if (won != null) {
          winners.add(won);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during the store guarantee check");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException ? (IOException) cause : new IOException(cause);
    }
    return winners;
  }

  /** A racing writer's body: the text, padded to {@link #raceBytes}. */
  private byte[] raceBytes(String s) {
    byte[] text = GuaranteeCheck.payloadBytes(s);
    return text.length >= raceBytes ? text : Arrays.copyOf(text, raceBytes);
  }
}
