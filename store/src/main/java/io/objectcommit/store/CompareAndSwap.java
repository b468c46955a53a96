package io.objectcommit.store;


import io.objectcommit.store.config.ConfigReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one compare-and-swap loop of a small record that several writers change (a direct committer task record, a
 * checkpoint directory manifest). Each attempt reads the record (from a cache on the first attempt, fresh after
 * a conflict), applies the change and writes it conditionally: {@code If-None-Match: *} when there is no record
 * yet, {@code If-Match} the ETag read otherwise, made through {@link #write(Write)}. A refused write
 * ({@link ObjectChangedException}, {@link FileAlreadyExistsException}, or {@link FileNotFoundException} for a record
 * deleted meanwhile) is a conflict: the next attempt starts over. The same exceptions thrown elsewhere in an
 * attempt (a change that finds a file missing) are failures, not conflicts, and propagate. From the second conflict on, attempts wait (50 ms doubling to 2 s):
 * repeated conflicts mean contention, or a store whose reads lag behind its writes. After
 * {@link StoreConstants#CAS_ATTEMPTS} attempts the loop fails with {@link CasConflictException}.
 */
public final class CompareAndSwap {

  private static final Logger LOG = LoggerFactory.getLogger(CompareAndSwap.class);

  /** One attempt: read, change, write conditionally through {@link CompareAndSwap#write(Write)}. */
  @FunctionalInterface
  public interface Attempt<R> {
    /** @param attempt 0 for the first attempt; from 1 on, re-read the record (the cached copy was stale) */
    R run(int attempt) throws IOException;
  }

  /** The conditional write of an attempt. */
  @FunctionalInterface
  public interface Write<T> {
    T run() throws IOException;
  }

  /** A refused conditional write, carried from {@link #write(Write)} to {@link #run}. */
  private static final class Conflict extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Conflict(IOException refused) {
      super(refused);
    }

    IOException refused() {
      return (IOException) getCause();
    }
  }

  /** Waits between attempts; replaced in tests. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  private final int attempts;
  private final Sleeper sleeper;

  public CompareAndSwap(int attempts) {
    this(attempts, Thread::sleep);
  }

  public CompareAndSwap(int attempts, Sleeper sleeper) {
    if (attempts < StoreConstants.CAS_ATTEMPTS_MIN) {
      throw new IllegalArgumentException("compare-and-swap attempts must be at least 1, not " + attempts);
    }
    this.attempts = attempts;
    this.sleeper = sleeper;
  }

  /**
   * The attempts configured for a bucket: the first of {@code specificKeys} that is set (a component's own key,
   * such as the checkpoint file system's), else {@value StoreConstants#CAS_ATTEMPTS}, else
   * {@value StoreConstants#CAS_ATTEMPTS_DEFAULT}; each read with its per-bucket override.
   *
   * @throws IllegalArgumentException naming the key of a bad value
   */
  public static int attempts(ConfigReader config, String... specificKeys) {
    int general = config.getInt(StoreConstants.CAS_ATTEMPTS, StoreConstants.CAS_ATTEMPTS_DEFAULT,
        StoreConstants.CAS_ATTEMPTS_MIN, StoreConstants.CAS_ATTEMPTS_MAX);
    for (String key : specificKeys) {
      if (config.get(key, null) != null) {
        return config.getInt(key, general, StoreConstants.CAS_ATTEMPTS_MIN, StoreConstants.CAS_ATTEMPTS_MAX);
      }
    }
    return general;
  }

  public int attempts() {
    return attempts;
  }

  /**
   * Makes the conditional write of an attempt: a refusal because another writer changed (or created, or deleted)
   * the record first becomes a conflict that {@link #run} retries; any other failure propagates.
   */
  public static <T> T write(Write<T> write) throws IOException {
    try {
      return write.run();
    } catch (ObjectChangedException | FileAlreadyExistsException | FileNotFoundException refused) {
      throw new Conflict(refused);
    }
  }

  /**
   * Runs attempts until one returns.
   *
   * @param path the record's path, for the message
   * @param what the record, for the message ("task record of task m-000003")
   * @throws CasConflictException after {@link #attempts()} conflicts (the last conflict is its cause)
   */
  public <R> R run(String path, String what, Attempt<R> attempt) throws IOException {
    IOException last = null;
    for (int i = 0; i < attempts; i++) {
      try {
        return attempt.run(i);
      } catch (Conflict conflict) {
        last = conflict.refused();
        LOG.debug("{} changed under us (attempt {} of {}): {}", path, i + 1, attempts, last.toString());
        if (i > 0 && i + 1 < attempts) {
          pause(i - 1);
        }
      }
    }
    throw new CasConflictException(path, what, attempts, last);
  }

  private void pause(int n) throws IOException {
    try {
      sleeper.sleep(Math.min(2_000L, 50L << Math.min(n, 10)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException ie = new InterruptedIOException("interrupted between compare-and-swap attempts");
      ie.initCause(e);
      throw ie;
    }
  }
}
