package io.objectcommit.store.impl.client;

import io.objectcommit.store.audit.RequestAttribution;
import io.objectcommit.store.impl.S3Calls;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The S3 clients of one store context, one per {@link S3ClientSettings#cacheKey()} (bucket and effective
 * configuration) and {@link SdkBinding} (SDK v1 or v2), reference counted: {@link #acquire} builds the client or
 * shares the existing one, and the client is shut down when the last {@link Lease} is closed. A later
 * {@link #acquire} then builds a new one. The JVM's context holds the cache every store of the JVM shares; a test
 * may hold its own. Thread-safe.
 */
public final class S3ClientCache {

  private static final Logger LOG = LoggerFactory.getLogger(S3ClientCache.class);

  private final Map<String, Entry> clients = new HashMap<>();
  private long built;

  /** An empty cache. */
  public S3ClientCache() {
  }

  /**
   * A lease on the client of {@code settings}; close it when done.
   *
   * @throws IllegalArgumentException when the client cannot be built (see {@link SdkBinding#newClient})
   */
  public Lease acquire(S3ClientSettings settings, SdkBinding binding) {
    String key = settings.cacheKey() + "\nsdk=" + binding.name();
    synchronized (clients) {
      Entry e = clients.get(key);
      if (e == null) {
        e = new Entry(key, settings.describe() + " (SDK " + binding.name() + ")", binding, settings,
            binding.newClient(settings));
        clients.put(key, e);
        built++;
        LOG.debug("created S3 client for {}", e.description);
      }
      e.leases++;
      return new Lease(this, e);
    }
  }

  /** Number of clients this cache built (for tests and diagnostics). */
  public long clientsBuilt() {
    synchronized (clients) {
      return built;
    }
  }

  /**
   * Leases held now over every client: one per open {@link io.objectcommit.store.ObjectStore} (for tests and
   * diagnostics: a store never closed stays counted here, and keeps its client and connections alive).
   */
  public int leasesHeld() {
    synchronized (clients) {
      return clients.values().stream().mapToInt(e -> e.leases).sum();
    }
  }

  /** Number of clients alive (for tests and diagnostics). */
  public int size() {
    synchronized (clients) {
      return clients.size();
    }
  }

  private void release(Entry e) {
    synchronized (clients) {
      if (--e.leases > 0) {
        return;
      }
      clients.remove(e.key, e);
    }
    LOG.debug("shutting down S3 client for {}", e.description);
    e.binding.shutdown(e.client);
  }

  private static final class Entry {
    final String key;
    final String description;
    final SdkBinding binding;
    final S3ClientSettings settings;
    final Object client;
    int leases;

    Entry(String key, String description, SdkBinding binding, S3ClientSettings settings, Object client) {
      this.key = key;
      this.description = description;
      this.binding = binding;
      this.settings = settings;
      this.client = client;
    }
  }

  /** One user's hold on a shared client. {@link #close()} is idempotent. */
  public static final class Lease implements AutoCloseable {

    private final S3ClientCache cache;
    private final Entry entry;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Lease(S3ClientCache cache, Entry entry) {
      this.cache = cache;
      this.entry = entry;
    }

    /** The shared SDK client; do not shut it down, close the lease. */
    public Object client() {
      if (closed.get()) {
        throw new IllegalStateException("Lease on the S3 client for " + entry.description + " is closed");
      }
      return entry.client;
    }

    /** The requests of {@code bucket} through the shared client, without the attribution header. */
    public S3Calls calls(String bucket, EncryptionSettings encryption) {
      return calls(bucket, encryption, RequestAttribution.none());
    }

    /** The requests of {@code bucket} through the shared client, each attributed by {@code attribution}. */
    public S3Calls calls(String bucket, EncryptionSettings encryption, RequestAttribution attribution) {
      return entry.binding.calls(client(), entry.settings, bucket, encryption, attribution);
    }

    /** Releases the client: the last lease shuts it down. */
    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        cache.release(entry);
      }
    }

    @Override
    public String toString() {
      return "Lease{" + entry.description + (closed.get() ? ", closed" : "") + "}";
    }
  }
}
