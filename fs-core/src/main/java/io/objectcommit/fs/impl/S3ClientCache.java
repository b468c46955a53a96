package io.objectcommit.fs.impl;

import com.amazonaws.services.s3.AmazonS3;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The S3 clients of this JVM, one per {@link S3ClientSettings#cacheKey()} (bucket and effective configuration),
 * reference counted: {@link #acquire} builds the client or shares the existing one, and the client is shut down
 * when the last {@link Lease} is closed. A later {@link #acquire} then builds a new one. Thread-safe.
 */
public final class S3ClientCache {

  private static final Logger LOG = LoggerFactory.getLogger(S3ClientCache.class);

  private static final Map<String, Entry> CLIENTS = new HashMap<>();
  private static long built;

  private S3ClientCache() {
  }

  /**
   * A lease on the client of {@code settings}; close it when done.
   *
   * @throws IllegalArgumentException when the client cannot be built (see {@link S3ClientFactory#create})
   */
  public static Lease acquire(S3ClientSettings settings) {
    String key = settings.cacheKey();
    synchronized (CLIENTS) {
      Entry e = CLIENTS.get(key);
      if (e == null) {
        e = new Entry(key, settings.describe(), S3ClientFactory.create(settings));
        CLIENTS.put(key, e);
        built++;
        LOG.debug("created S3 client for {}", e.description);
      }
      e.leases++;
      return new Lease(e);
    }
  }

  /** Number of clients built since this JVM started (for tests and diagnostics). */
  public static long clientsBuilt() {
    synchronized (CLIENTS) {
      return built;
    }
  }

  /** Number of clients alive (for tests and diagnostics). */
  static int size() {
    synchronized (CLIENTS) {
      return CLIENTS.size();
    }
  }

  private static void release(Entry e) {
    synchronized (CLIENTS) {
      if (--e.leases > 0) {
        return;
      }
      CLIENTS.remove(e.key, e);
    }
    LOG.debug("shutting down S3 client for {}", e.description);
    e.client.shutdown();
  }

  private static final class Entry {
    final String key;
    final String description;
    final AmazonS3 client;
    int leases;

    Entry(String key, String description, AmazonS3 client) {
      this.key = key;
      this.description = description;
      this.client = client;
    }
  }

  /** One user's hold on a shared client. {@link #close()} is idempotent. */
  public static final class Lease implements AutoCloseable {

    private final Entry entry;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Lease(Entry entry) {
      this.entry = entry;
    }

    /** The shared client; do not shut it down, close the lease. */
    public AmazonS3 client() {
      if (closed.get()) {
        throw new IllegalStateException("Lease on the S3 client for " + entry.description + " is closed");
      }
      return entry.client;
    }

    /** Releases the client: the last lease shuts it down. */
    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        release(entry);
      }
    }

    @Override
    public String toString() {
      return "Lease{" + entry.description + (closed.get() ? ", closed" : "") + "}";
    }
  }
}
