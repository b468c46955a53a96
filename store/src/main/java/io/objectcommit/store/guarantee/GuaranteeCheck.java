package io.objectcommit.store.guarantee;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.impl.RequestFailure;
import io.objectcommit.store.statistics.StoreStatistics;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies the {@link StoreGuarantee}s against a store, through an {@link ObjectStore} that sends conditions as
 * given (the S3 store without the guarantee policy around it, so that the check does not recurse into itself):
 * a client of the public store interface, nothing more. Every object it writes lives under one fresh prefix below
 * the probe prefix it is given (where the component that asks writes, {@link ProbeSite}) and is deleted at the
 * end; it sends requests on those keys only, none on the bucket (PutObject, multipart uploads, GetObject,
 * AbortMultipartUpload, DeleteObjects of its own keys).
 *
 * <p>Sequential guarantees cost a handful of requests each. The two atomicity guarantees race writers over rounds
 * ({@link GuaranteeRaces}: {@link #DEFAULT_ROUNDS} of exclusive creates, {@link #DEFAULT_CAS_ROUNDS} of
 * compare-and-swap, {@link #DEFAULT_WRITERS} writers each); the defaults are chosen from measurements on stores
 * that get the race wrong (docs/stores.md, "How many rounds"). Cheapest first: the sequential guarantees side by
 * side, then the races one after the other.
 */
public final class GuaranteeCheck {

  private static final Logger LOG = LoggerFactory.getLogger(GuaranteeCheck.class);
  /**
   * Rounds of the exclusive-create race: enough for the stores seen losing it (docs/stores.md, "How many rounds",
   * has the measurements behind it).
   */
  public static final int DEFAULT_ROUNDS = 12;
  /**
   * Rounds of the compare-and-swap race: a store that checks {@code If-Match} on the request head loses every round
   * ({@link RaceGate}); rarer losses are what the further rounds are for (docs/stores.md, "How many rounds").
   */
  public static final int DEFAULT_CAS_ROUNDS = 8;
  /** Racing writers per round. */
  public static final int DEFAULT_WRITERS = 4;
  /** Bytes each racing writer sends: a larger body keeps a check-then-write store's window open longer. */
  public static final int DEFAULT_RACE_BYTES = 0;

  /**
   * The threads of one run: the sequential guarantees side by side, then each race's writers. Daemon threads,
   * created when needed and ended with the run, so that nothing of a check outlives it (a check runs once per
   * bucket in a long-lived driver; FailedJobResourcesIT counts our threads after a session) and no pool is kept
   * between checks.
   */
  private static ExecutorService newThreads() {
    return Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "objectcommit-guarantee-check");
      t.setDaemon(true);
      return t;
    });
  }

  private final ObjectStore store;
  private final String prefix;
  private final boolean stopAtFirstFailure;
  /** The sequential guarantees one after another, each measured alone ({@link #measuring}), not side by side. */
  private final boolean oneAtATime;
  private final GuaranteeRaces races;
  private final List<String> written = new ArrayList<>();
  /** Uploads whose completion was refused: aborted at the end, after the checks of what they left. */
  private final List<MultipartUpload> refusedUploads = new ArrayList<>();

  /** A check of every guarantee asked for, even after one failed (for reports and measurements). */
  public GuaranteeCheck(ObjectStore store, String probePrefix, int rounds, int writers) {
    this(store, probePrefix, rounds, rounds, writers, DEFAULT_RACE_BYTES, false);
  }

  /**
   * @param rounds rounds of the exclusive-create race
   * @param casRounds rounds of the compare-and-swap race
   * @param raceBytes bytes each racing writer sends (at least the short text naming the writer; keep it small:
   *     a store that answers 412 before reading a large body breaks the connection, seen on S3Proxy)
   * @param stopAtFirstFailure skip the guarantees not checked yet once one failed (the report then names only
   *     those checked): the cheap sequential guarantees are checked first, then the exclusive-create race, then
   *     the compare-and-swap race
   */
  public GuaranteeCheck(ObjectStore store, String probePrefix, int rounds, int casRounds, int writers,
      int raceBytes, boolean stopAtFirstFailure) {
    this(store, probePrefix, rounds, casRounds, writers, raceBytes, stopAtFirstFailure, false);
  }

  private GuaranteeCheck(ObjectStore store, String probePrefix, int rounds, int casRounds, int writers,
      int raceBytes, boolean stopAtFirstFailure, boolean oneAtATime) {
    this.store = store;
    this.prefix = probePrefix + "check-" + UUID.randomUUID() + "/";
    this.stopAtFirstFailure = stopAtFirstFailure;
    this.oneAtATime = oneAtATime;
    this.races = new GuaranteeRaces(store, prefix, rounds, casRounds, writers, raceBytes, this::tracked);
  }

  /** The check with the default rounds of every guarantee asked for, even after one failed (reports, tests). */
  public static GuaranteeCheck reporting(ObjectStore store, String probePrefix) {
    return new GuaranteeCheck(store, probePrefix, DEFAULT_ROUNDS, DEFAULT_CAS_ROUNDS, DEFAULT_WRITERS,
        DEFAULT_RACE_BYTES, false);
  }

  /** The check a component's first write runs: default rounds, stopping at the first failure. */
  public static GuaranteeCheck refusing(ObjectStore store, String probePrefix) {
    return new GuaranteeCheck(store, probePrefix, DEFAULT_ROUNDS, DEFAULT_CAS_ROUNDS, DEFAULT_WRITERS,
        DEFAULT_RACE_BYTES, true);
  }

  /**
   * The check with the default rounds whose report gives each guarantee's own requests and time
   * ({@link GuaranteeReport#cost}): the sequential guarantees one after another instead of side by side (a few
   * hundred milliseconds more on a fast store), so that each one's requests are counted apart; what
   * {@code objectcommit store check} runs.
   *
   * @param stopAtFirstFailure skip the races once a sequential guarantee failed, as a component's check does
   */
  public static GuaranteeCheck measuring(ObjectStore store, String probePrefix, boolean stopAtFirstFailure) {
    return new GuaranteeCheck(store, probePrefix, DEFAULT_ROUNDS, DEFAULT_CAS_ROUNDS, DEFAULT_WRITERS,
        DEFAULT_RACE_BYTES, stopAtFirstFailure, true);
  }

  /** The order in which a check takes {@code guarantees}: the sequential ones, then the races (cheapest first). */
  public static List<StoreGuarantee> order(Set<StoreGuarantee> guarantees) {
    List<StoreGuarantee> order = new ArrayList<>();
    for (boolean race : new boolean[] {false, true}) {
      for (StoreGuarantee g : StoreGuarantee.values()) {
        if (guarantees.contains(g) && StoreGuarantees.isAtomicity(g) == race) {
          order.add(g);
        }
      }
    }
    return order;
  }

  /** Checks each guarantee asked for and reports; never throws for a failed guarantee. */
  public GuaranteeReport run(Set<StoreGuarantee> guarantees) throws IOException {
    long t0 = System.nanoTime();
    long r0 = store.statistics().snapshot().totalRequests();
    Map<StoreGuarantee, String> failures = new EnumMap<>(StoreGuarantee.class);
    Set<StoreGuarantee> checked = EnumSet.noneOf(StoreGuarantee.class);
    Map<StoreGuarantee, GuaranteeReport.Cost> costs = new EnumMap<>(StoreGuarantee.class);
    // The sequential guarantees are independent (own keys): checked side by side, then the races one after the
    // other (two races at once change each other's timing and hide lost races (docs/stores.md)).
    List<Future<?>> running = new ArrayList<>();
    StringBuilder phases = new StringBuilder();
    ExecutorService threads = newThreads();
    try {
      Map<StoreGuarantee, Future<Optional<String>>> results = new EnumMap<>(StoreGuarantee.class);
      for (StoreGuarantee g : StoreGuarantee.values()) {
        if (oneAtATime && guarantees.contains(g) && !StoreGuarantees.isAtomicity(g)) {
          StoreStatistics.Snapshot before = store.statistics().snapshot();
          long t1 = System.nanoTime();
          check(g, threads).ifPresent(why -> failures.put(g, why));
          checked.add(g);
          costs.put(g, costSince(before, t1));
        } else if (guarantees.contains(g) && !StoreGuarantees.isAtomicity(g)) {
          Future<Optional<String>> f = threads.submit(() -> check(g, threads));
          results.put(g, f);
          running.add(f);
        }
      }
      for (Map.Entry<StoreGuarantee, Future<Optional<String>>> e : results.entrySet()) {
        await(e.getValue()).ifPresent(why -> failures.put(e.getKey(), why));
        checked.add(e.getKey());
      }
      phases.append("sequential ").append(ms(t0)).append(" ms");
      for (StoreGuarantee g : StoreGuarantee.values()) {
        if (guarantees.contains(g) && StoreGuarantees.isAtomicity(g)
            && !(stopAtFirstFailure && !failures.isEmpty())) {
          StoreStatistics.Snapshot before = store.statistics().snapshot();
          long t1 = System.nanoTime();
          check(g, threads).ifPresent(why -> failures.put(g, why));
          checked.add(g);
          costs.put(g, costSince(before, t1));
          phases.append(", ").append(g).append(' ').append(ms(t1)).append(" ms");
        }
      }
    } catch (IOException | RuntimeException e) {
      running.forEach(f -> f.cancel(true));
      cleanUp(e);
      throw e;
    } finally {
      threads.shutdownNow();
    }
    StoreStatistics.Snapshot beforeCleanup = store.statistics().snapshot();
    long t2 = System.nanoTime();
    cleanUp(null);
    GuaranteeReport.Cost cleanup = costSince(beforeCleanup, t2);
    phases.append(", cleanup ").append(cleanup.millis()).append(" ms");
    GuaranteeReport report = new GuaranteeReport(store.pathOf(prefix), order(guarantees), checked, failures, costs,
        cleanup, store.statistics().snapshot().totalRequests() - r0, (System.nanoTime() - t0) / 1_000_000);
    Set<StoreGuarantee> skipped = EnumSet.noneOf(StoreGuarantee.class);
    guarantees.stream().filter(g -> !checked.contains(g)).forEach(skipped::add);
    LOG.info("Store guarantee check: {}{}; {}", report, skipped.isEmpty() ? ""
        : " (stopped at the first failure; not checked: " + skipped + ")", phases);
    return report;
  }

  /** The requests (and retries among them) of this check's store since {@code before}, and the time since t0. */
  private GuaranteeReport.Cost costSince(StoreStatistics.Snapshot before, long t0) {
    StoreStatistics.Snapshot d = store.statistics().snapshot().minus(before);
    long retries = d.operations().values().stream().mapToLong(v -> v.retries).sum();
    return new GuaranteeReport.Cost(d.totalRequests(), retries, ms(t0));
  }

  private static long ms(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }

  private Optional<String> check(StoreGuarantee g, ExecutorService threads) throws IOException {
    switch (g) {
      case IF_NONE_MATCH_PUT:
        return ifNoneMatch(false);
      case IF_NONE_MATCH_COMPLETE:
        return ifNoneMatch(true);
      case IF_MATCH_PUT:
        return ifMatch(false);
      case IF_MATCH_COMPLETE:
        return ifMatch(true);
      case ATOMIC_EXCLUSIVE_CREATE:
        return races.exclusiveCreates(threads);
      case ATOMIC_COMPARE_AND_SWAP:
        return races.compareAndSwap(threads);
      case ABORT_KEEPS_EXISTING:
        return abortKeepsExisting();
      case IF_MATCH_DELETE:
        return ifMatchDelete();
      default:
        throw new IllegalArgumentException(g.toString());
    }
  }

  /** Exclusive create of a new key succeeds; a second one (PUT or Complete) is refused; the object unchanged. */
  private Optional<String> ifNoneMatch(boolean multipart) throws IOException {
    String key = key(multipart ? "inm-complete" : "inm-put");
    String how = multipart ? "CompleteMultipartUpload" : "PutObject";
    try {
      write(key, "first", WriteCondition.ifAbsent(), multipart);
    } catch (FileAlreadyExistsException e) {
      return Optional.of("an exclusive " + how + " of a new key was refused");
    } catch (IOException e) {
      return rejectedHeader(e, "If-None-Match", how);
    }
    try {
      write(key, "second", WriteCondition.ifAbsent(), multipart);
      return Optional.of("a second exclusive " + how + " of one key succeeded");
    } catch (FileAlreadyExistsException expected) {
      return unchanged(key, "first", "a refused exclusive " + how);
    }
  }

  /** If-Match: a stale ETag and a missing key are refused, objects unchanged; the current ETag succeeds. */
  private Optional<String> ifMatch(boolean multipart) throws IOException {
    String key = key(multipart ? "im-complete" : "im-put");
    String how = multipart ? "CompleteMultipartUpload" : "PutObject";
    String stale = write(key, "v1", WriteCondition.none(), false).etag();
    String current = write(key, "v2", WriteCondition.none(), false).etag();
    if (stale.equals(current)) {
      return Optional.of("two different objects got one ETag (" + stale + ")");
    }
    try {
      write(key, "v3 stale", WriteCondition.ifMatch(stale), multipart);
      return Optional.of("an If-Match " + how + " with a stale ETag succeeded");
    } catch (ObjectChangedException | FileNotFoundException expected) {
      Optional<String> changed = unchanged(key, "v2", "a refused If-Match " + how);
      if (changed.isPresent()) {
        return changed;
      }
    } catch (IOException e) {
      return rejectedHeader(e, "If-Match", how);
    }
    String missing = key(multipart ? "im-complete-missing" : "im-put-missing");
    try {
      write(missing, "v1", WriteCondition.ifMatch(current), multipart);
      return Optional.of("an If-Match " + how + " of a missing key succeeded");
    } catch (ObjectChangedException | FileNotFoundException expected) {
      if (exists(missing)) {
        return Optional.of("a refused If-Match " + how + " of a missing key created it");
      }
    }
    try {
      write(key, "v3", WriteCondition.ifMatch(current), multipart);
    } catch (ObjectChangedException | FileNotFoundException e) {
      return Optional.of("an If-Match " + how + " with the current ETag was refused");
    }
    return Optional.empty();
  }

  /**
   * If-Match on DeleteObject: with an ETag that is not the object's it is refused and the object kept; with the
   * object's ETag it deletes. Four requests (PUT, refused DELETE, GET, DELETE); the deleted key stays in the cleanup's
   * list (a missing key counts as deleted there).
   */
  private Optional<String> ifMatchDelete() throws IOException {
    String key = key("im-delete");
    String current = write(key, "kept", WriteCondition.none(), false).etag();
    // an ETag of other bytes: what a caller holds after another writer replaced the object
    String stale = current.equals(STALE_ETAG) ? STALE_ETAG.replace('0', '1') : STALE_ETAG;
    try {
      store.delete(key, stale);
      return Optional.of(exists(key) ? "a DeleteObject with a stale If-Match was not refused"
          : "a DeleteObject with a stale If-Match deleted the object");
    } catch (ObjectChangedException expected) {
      Optional<String> changed = unchanged(key, "kept", "a refused If-Match DeleteObject");
      if (changed.isPresent()) {
        return changed;
      }
    } catch (IOException e) {
      // any answer but a refusal of access: the store does not do it (LocalStack: 501), and since the guarantee is
      // only asked about, the component then deletes as it did without it rather than failing
      int status = e.getCause() instanceof RequestFailure ? ((RequestFailure) e.getCause()).status() : -1;
      if (status >= 400 && status != 403) {
        return Optional.of("the store rejects If-Match on DeleteObject (" + status + ")");
      }
      throw e;
    }
    try {
      store.delete(key, current);
    } catch (ObjectChangedException e) {
      return Optional.of("a DeleteObject with the current If-Match was refused");
    }
    return Optional.empty();
  }

  /** An ETag no object of the check has (the MD5 form S3 gives a single PUT). */
  private static final String STALE_ETAG = "00000000000000000000000000000000";

  private Optional<String> abortKeepsExisting() throws IOException {
    String key = key("abort");
    write(key, "existing", WriteCondition.none(), false);
    MultipartUpload upload = store.initiateMultipartUpload(key);
    store.uploadPart(upload, 1, payload("aborted part"));
    store.abortMultipartUpload(upload);
    return unchanged(key, "existing", "AbortMultipartUpload of an upload to it");
  }

  private static <T> T await(Future<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during the store guarantee check");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IOException(cause);
    }
  }

  /**
   * Writes with one PUT, or as a one-part multipart upload. A refused upload is aborted only at the end, so that
   * what the refusal itself left is checked apart from what an abort does
   * ({@link StoreGuarantee#ABORT_KEEPS_EXISTING}).
   */
  private ObjectInfo write(String key, String content, WriteCondition c, boolean multipart) throws IOException {
    if (!multipart) {
      return tracked(key, () -> store.put(key, payload(content), c));
    }
    MultipartUpload upload = store.initiateMultipartUpload(key);
    try {
      UploadedPart part = store.uploadPart(upload, 1, payload(content));
      return tracked(key, () -> store.completeMultipartUpload(upload, List.of(part), c));
    } catch (IOException e) {
      synchronized (this) {
        refusedUploads.add(upload);
      }
      throw e;
    }
  }

  interface Write {
    ObjectInfo run() throws IOException;
  }

  /**
   * Runs a write of {@code key}, remembering the key for the cleanup if the write succeeded or may have succeeded
   * (an ambiguous failure): not after a refusal, a missing bucket, refused access or no connection.
   */
  private ObjectInfo tracked(String key, Write w) throws IOException {
    try {
      ObjectInfo info = w.run();
      remember(key);
      return info;
    } catch (FileAlreadyExistsException | ObjectChangedException | FileNotFoundException refused) {
      throw refused;
    } catch (IOException e) {
      if (ProbeFailure.mayHaveWritten(e)) {
        remember(key);
      }
      throw e;
    }
  }

  /**
   * Whether an object exists at {@code key}: one GET, not a HEAD, because a HEAD answers 404 for a missing key and a
   * missing bucket alike, and the store then asks the bucket (HeadBucket, which needs {@code s3:ListBucket} on the
   * whole bucket), where a GET's answer tells them apart. The check sends no request on the bucket itself, so that
   * the permissions of the prefix where it writes are all it needs.
   */
  private boolean exists(String key) throws IOException {
    try {
      store.getBytes(key);
      return true;
    } catch (FileNotFoundException absent) {
      return false;
    }
  }

  /** The object at {@code key} still holds what the check wrote there ({@code content}). One GET. */
  private Optional<String> unchanged(String key, String content, String what) throws IOException {
    StoredBytes now;
    try {
      now = store.getBytes(key);
    } catch (FileNotFoundException gone) {
      return Optional.of(what + " deleted the existing object");
    }
    if (!Arrays.equals(payloadBytes(content), now.data())) {
      return Optional.of(what + " replaced the existing object");
    }
    return Optional.empty();
  }

  private static Optional<String> rejectedHeader(IOException e, String header, String how) throws IOException {
    String status = String.valueOf(e.getCause() instanceof RequestFailure
        ? ((RequestFailure) e.getCause()).status() : -1);
    if (status.equals("400") || status.equals("501")) {
      return Optional.of("the store rejects " + header + " on " + how + " (" + status + ")");
    }
    throw e;
  }

  private String key(String name) {
    return prefix + name;
  }

  private synchronized void remember(String key) {
    if (!written.contains(key)) {
      written.add(key);
    }
  }

  static byte[] payloadBytes(String s) {
    return ("objectcommit store guarantee check: " + s).getBytes(StandardCharsets.UTF_8);
  }

  private static Payload payload(String s) {
    return Payload.of(payloadBytes(s));
  }

  /**
   * Aborts the refused uploads and deletes what the check wrote (one bulk DELETE). A failure here is added to
   * {@code failure} (the check's own first failure) when there is one, else logged: never thrown.
   */
  private void cleanUp(Throwable failure) {
    List<MultipartUpload> uploads;
    List<String> keys;
    synchronized (this) {
      uploads = new ArrayList<>(refusedUploads);
      keys = new ArrayList<>(written);
    }
    for (MultipartUpload u : uploads) {
      try {
        store.abortMultipartUpload(u);
      } catch (IOException | RuntimeException e) {
        cleanupFailed(failure, e, "abort " + u);
      }
    }
    if (keys.isEmpty()) {
      return;
    }
    try {
      store.deleteBatch(keys);
    } catch (IOException | RuntimeException e) {
      cleanupFailed(failure, e, "delete its objects under " + store.pathOf(prefix));
    }
  }

  private static void cleanupFailed(Throwable failure, Exception e, String what) {
    if (failure != null) {
      failure.addSuppressed(e);
      LOG.debug("Store guarantee check: could not {} after the check failed", what, e);
    } else {
      LOG.warn("Store guarantee check: could not {} (harmless; delete them by hand): {}", what, e.toString());
      LOG.debug("cleanup failure", e);
    }
  }
}
