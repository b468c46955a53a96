package io.objectcommit.readcache.files;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.objectcommit.store.files.JsonRecord;
import io.objectcommit.store.files.JsonRecordCodec;

/**
 * What one JVM read through a cache directory on behalf of one application: the record each JVM keeps in the
 * directory's {@code applications/} folder (one file per application and JVM, replaced whole as it changes), from
 * which {@code objectcommit cache stats} sums each application's and the host's use. The application is Spark's
 * {@code spark.app.id} where the JVM runs Spark, else the JVM's own id ({@code jvm-<pid>}). Counters only grow.
 */
public final class ApplicationUsage extends JsonRecord {

  /** The record type: {@value}. */
  public static final String TYPE = "objectcommit/read-cache/application-usage";
  /** The version this code writes: {@value}. */
  public static final int VERSION = 1;
  /** Indented JSON (people read it; a few hundred bytes). */
  public static final JsonRecordCodec<ApplicationUsage> CODEC = new JsonRecordCodec<>(ApplicationUsage.class, TYPE,
      VERSION, VERSION);

  /** The application: {@code spark.app.id}, or {@code jvm-<pid>} outside Spark. */
  @JsonProperty("application")
  public String application;
  /** {@code spark.app.name} where known. */
  @JsonProperty("applicationName")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public String applicationName;
  /** The host the JVM runs on (the cache directory is on its local disk). */
  @JsonProperty("host")
  public String host;
  /** The JVM: {@code <pid>@<start time in ms>}, unique on the host. */
  @JsonProperty("jvm")
  public String jvm;
  /** When the JVM first counted a read of the application (ms since the epoch). */
  @JsonProperty("started")
  public long started;
  /** When the record was written (ms since the epoch). */
  @JsonProperty("updated")
  public long updated;
  /** Blocks served from the cache directory. */
  @JsonProperty("hits")
  public long hits;
  /** Blocks fetched from the store (one ranged GET each). */
  @JsonProperty("misses")
  public long misses;
  /** Bytes served from the cache directory. */
  @JsonProperty("bytesFromCache")
  public long bytesFromCache;
  /** Bytes fetched from the store. */
  @JsonProperty("bytesFromStore")
  public long bytesFromStore;
  /** GETs not sent because the block was cached: one per hit. */
  @JsonProperty("requestsSaved")
  public long requestsSaved;
  /** Blocks this JVM evicted while the application read. */
  @JsonProperty("evictions")
  public long evictions;
  /** Bytes of those blocks. */
  @JsonProperty("evictedBytes")
  public long evictedBytes;
  /** Block files that failed their checks and were deleted. */
  @JsonProperty("checksumFailures")
  public long checksumFailures;
  /** Blocks fetched but not written to the directory. */
  @JsonProperty("writeFailures")
  public long writeFailures;

  public ApplicationUsage() {
    super(TYPE, VERSION);
  }

  /**
   * The sum of {@code this} and {@code other}'s counters (a copy of this when {@code other} is null), for
   * {@code application} (host and JVM: this one's).
   */
  public ApplicationUsage plus(ApplicationUsage other, String application) {
    if (other == null) {
      other = new ApplicationUsage();
      other.started = started;
      other.updated = updated;
    }
    ApplicationUsage s = new ApplicationUsage();
    s.application = application;
    s.applicationName = applicationName != null ? applicationName : other.applicationName;
    s.host = host;
    s.jvm = jvm;
    s.started = Math.min(started, other.started);
    s.updated = Math.max(updated, other.updated);
    s.hits = hits + other.hits;
    s.misses = misses + other.misses;
    s.bytesFromCache = bytesFromCache + other.bytesFromCache;
    s.bytesFromStore = bytesFromStore + other.bytesFromStore;
    s.requestsSaved = requestsSaved + other.requestsSaved;
    s.evictions = evictions + other.evictions;
    s.evictedBytes = evictedBytes + other.evictedBytes;
    s.checksumFailures = checksumFailures + other.checksumFailures;
    s.writeFailures = writeFailures + other.writeFailures;
    return s;
  }

  @Override
  public void validate() {
    check(application != null && !application.isEmpty(), "read cache application usage: no application");
    check(host != null && !host.isEmpty(), "read cache application usage of " + application + ": no host");
    check(jvm != null && !jvm.isEmpty(), "read cache application usage of " + application + ": no JVM");
    check(started > 0 && updated >= started, "read cache application usage of " + application + ": updated "
        + updated + " before started " + started);
    long[] counters = {hits, misses, bytesFromCache, bytesFromStore, requestsSaved, evictions, evictedBytes,
        checksumFailures, writeFailures};
    for (long c : counters) {
      check(c >= 0, "read cache application usage of " + application + ": a negative counter (" + c + ")");
    }
    check(requestsSaved == hits, "read cache application usage of " + application + ": requests saved "
        + requestsSaved + " but " + hits + " hits (one GET saved per hit)");
  }

  @Override
  public String toString() {
    return "ApplicationUsage{" + application + " on " + host + " (JVM " + jvm + "), hits=" + hits + ", misses="
        + misses + ", bytesFromCache=" + bytesFromCache + ", bytesFromStore=" + bytesFromStore + ", evictions="
        + evictions + "}";
  }
}
