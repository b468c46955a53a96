package io.objectcommit.fs.impl;

import io.objectcommit.fs.ConditionalWritesUnsupportedException;
import io.objectcommit.fs.FsCoreConstants;
import io.objectcommit.fs.ObjectInfo;
import io.objectcommit.fs.Payload;
import io.objectcommit.fs.StoreCapabilities;
import io.objectcommit.fs.WriteCondition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Conditional writes: single conditional PUTs and what their refusal means, and whether the store honours the
 * conditions at all (probed once per bucket and endpoint in this JVM, per {@link FsCoreConstants#CONDITIONAL_WRITES}).
 * Sends its requests through {@link S3Requests} only.
 */
final class ConditionalWrites {

  private static final Logger LOG = LoggerFactory.getLogger(ConditionalWrites.class);

  /** Probe results per bucket and endpoint: capabilities, or the exception that says they are missing. */
  private static final Map<String, Object> PROBED = new ConcurrentHashMap<>();
  private static final Map<String, Boolean> WARNED = new ConcurrentHashMap<>();

  private final S3Requests requests;
  private final StoreOptions options;
  private final String where;

  ConditionalWrites(S3Requests requests, StoreOptions options) {
    this.requests = requests;
    this.options = options;
    this.where = requests.where();
  }

  /**
   * One PUT of a repeatable payload with the condition's header. A retried PUT that meets its own earlier write
   * (a refusal after an ambiguous failure, the object carrying this call's write id) is reported as the success
   * it was.
   */
  ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    String writeId = UUID.randomUUID().toString();
    return requests.put(key, payload, condition, writeId,
        (e, attempt) -> onRefusedPut(e, attempt, key, condition, writeId));
  }

  /**
   * What the store supports, probing it if the configuration asks for detection and this JVM has not probed the
   * bucket and endpoint yet.
   *
   * @param trigger the user's operation that needs the answer, for messages (e.g. {@code createExclusive
   *     s3://b/k})
   * @throws ConditionalWritesUnsupportedException if the store ignores or rejects the conditions (cached: every
   *     later call for the same bucket and endpoint throws a new one without a request)
   */
  StoreCapabilities capabilities(String trigger) throws IOException {
    switch (options.conditionalWrites()) {
      case ASSUME:
        return new StoreCapabilities(StoreCapabilities.ConditionalWrites.ASSUMED);
      case EMULATE:
        if (WARNED.putIfAbsent(where, Boolean.TRUE) == null) {
          LOG.warn("Conditional writes are EMULATED on {} ({}=emulate): HEAD then PUT, safe only with one writer"
              + " per key", where, FsCoreConstants.CONDITIONAL_WRITES);
        }
        return new StoreCapabilities(StoreCapabilities.ConditionalWrites.EMULATED);
      default:
        return detected(trigger);
    }
  }

  private StoreCapabilities detected(String trigger) throws IOException {
    Object known = PROBED.get(where);
    if (known == null) {
      synchronized (PROBED) {
        known = PROBED.get(where);
        if (known == null) {
          known = probe(trigger);
          PROBED.put(where, known);
        }
      }
    }
    if (known instanceof ConditionalWritesUnsupportedException) {
      throw ((ConditionalWritesUnsupportedException) known).copy();
    }
    return (StoreCapabilities) known;
  }

  /**
   * Two exclusive PUTs of one new key: the first must succeed and the second be refused. Returns the
   * capabilities, or the exception saying the store lacks them (not thrown: cached and thrown by the caller).
   * A failure of the check itself (no bucket, refused credentials, endpoint down) is thrown as the first failure,
   * described by {@link ProbeFailure}; the probe object's removal never replaces it.
   */
  private Object probe(String trigger) throws IOException {
    String key = options.probePrefix() + UUID.randomUUID();
    boolean[] written = {false};
    Object result;
    try {
      result = probeWrites(key, written);
    } catch (IOException e) {
      IOException reported = ProbeFailure.describe(e, trigger, requests.bucket(), where);
      if (written[0] || ProbeFailure.mayHaveWritten(e)) {
        removeProbe(key, reported);
      }
      throw reported;
    }
    if (written[0]) {
      removeProbe(key, null);
    }
    return result;
  }

  private Object probeWrites(String key, boolean[] written) throws IOException {
    String path = requests.pathOf(key);
    Payload body = Payload.of("objectcommit conditional-write probe".getBytes(StandardCharsets.UTF_8));
    long t0 = System.nanoTime();
    try {
      put(key, body, WriteCondition.ifAbsent());
      written[0] = true;
    } catch (IOException e) {
      if (e.getCause() instanceof RequestFailure) {
        int status = ((RequestFailure) e.getCause()).status();
        if (status == 400 || status == 501) {
          return unsupported(path, "it rejects the If-None-Match header (" + status + ")");
        }
      }
      throw e;
    }
    try {
      put(key, body, WriteCondition.ifAbsent());
      return unsupported(path, "it ignores If-None-Match: a second exclusive PUT of " + path + " succeeded");
    } catch (FileAlreadyExistsException expected) {
      LOG.info("Conditional writes verified on {} in {} ms", where, (System.nanoTime() - t0) / 1_000_000);
      return new StoreCapabilities(StoreCapabilities.ConditionalWrites.VERIFIED);
    }
  }

  /** Deletes the probe object; a failure is added to {@code failure} (when there is one) and logged, never thrown. */
  private void removeProbe(String key, IOException failure) {
    try {
      requests.delete(key);
    } catch (IOException | RuntimeException e) {
      if (failure != null) {
        failure.addSuppressed(e);
        LOG.debug("Could not delete the probe object {} after the check failed", requests.pathOf(key), e);
      } else {
        LOG.warn("Could not delete the conditional-write probe object {} (harmless; delete it by hand): {}",
            requests.pathOf(key), e.toString());
        LOG.debug("probe delete failure", e);
      }
    }
  }

  private ConditionalWritesUnsupportedException unsupported(String path, String why) {
    String msg = "The store at " + where + " does not support conditional writes: " + why + ". objectcommit needs"
        + " them to detect concurrent writers safely. Use a store that supports them (AWS S3 does), or set "
        + FsCoreConstants.CONDITIONAL_WRITES + "=emulate for a weaker mode that is safe with one writer per key only"
        + " (see docs/user-guide.md).";
    LOG.error(msg);
    return new ConditionalWritesUnsupportedException(path, msg, where, requests.bucket(),
        FsCoreConstants.CONDITIONAL_WRITES);
  }

  /**
   * Makes sure a condition can be honoured. Where conditional writes are emulated, checks it with a HEAD now and
   * returns {@link WriteCondition#none()} for the write itself.
   *
   * @param operation the user's operation, for messages ({@code createExclusive}, {@code completeMultipartUpload})
   */
  WriteCondition prepare(String key, WriteCondition c, String operation) throws IOException {
    if (!c.isConditional()
        || capabilities(operation + " " + requests.pathOf(key)).atomicConditionalWrites()) {
      return c;
    }
    Optional<ObjectInfo> current = requests.head(key).map(S3Calls.ObjectHead::info);
    if (c.kind() == WriteCondition.Kind.IF_ABSENT && current.isPresent()) {
      throw WriteConditions.refusal(requests.pathOf(key), "put", c, false);
    }
    if (c.kind() == WriteCondition.Kind.IF_MATCH) {
      if (current.isEmpty()) {
        throw WriteConditions.refusal(requests.pathOf(key), "put", c, true);
      }
      if (!c.etag().equals(current.get().etag())) {
        throw WriteConditions.refusal(requests.pathOf(key), "put", c, false);
      }
    }
    return WriteCondition.none();
  }

  /**
   * A conditional PUT was refused (412, or 404 for If-Match). If an earlier attempt of the same call may have
   * succeeded (a timeout, a reset), the object now carrying our write id is our own success. Otherwise throws
   * the refusal. Returns null for other failures.
   */
  private ObjectInfo onRefusedPut(RequestFailure e, int attempt, String key, WriteCondition c, String writeId)
      throws IOException {
    boolean gone = c.kind() == WriteCondition.Kind.IF_MATCH && e.isStatus(404)
        && !"NoSuchBucket".equals(e.errorCode());
    if (!c.isConditional() || !(e.isStatus(412) || gone)) {
      return null;
    }
    if (attempt > 0) {
      Optional<S3Calls.ObjectHead> md = requests.head(key);
      if (md.isPresent() && writeId.equals(md.get().writeId())) {
        LOG.debug("{}: a retried conditional PUT found its own earlier write", requests.pathOf(key));
        return md.get().info();
      }
    }
    IOException refusal = WriteConditions.refusal(requests.pathOf(key), "put", c, gone);
    refusal.initCause(e);
    throw refusal;
  }

  /** Forgets probe results (tests). */
  static void resetProbes() {
    PROBED.clear();
    WARNED.clear();
  }
}
