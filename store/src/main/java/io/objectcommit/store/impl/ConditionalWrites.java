package io.objectcommit.store.impl;

import io.objectcommit.store.guarantee.ProbeFailure;
import io.objectcommit.store.guarantee.StoreGuarantees;

import io.objectcommit.store.ConditionalWritesUnsupportedException;
import io.objectcommit.store.guarantee.EmulationRefusedException;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.guarantee.StoreGuarantee;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Conditional writes: single conditional PUTs and what their refusal means, and whether the store honours the
 * conditions (per {@link StoreConstants#CONDITIONAL_WRITES}; {@code detect} runs the store guarantee check,
 * {@link StoreGuarantees}, for the guarantees a write needs, once per bucket and endpoint in this JVM).
 * Sends its requests through {@link S3Requests} only.
 */
final class ConditionalWrites {

  private static final Logger LOG = LoggerFactory.getLogger(ConditionalWrites.class);

  private static final Map<String, Boolean> WARNED = new ConcurrentHashMap<>();

  private final S3Requests requests;
  private final StoreOptions options;
  private final String where;
  private final StoreGuarantees.AssumedStore assumed;

  /** @param assumed opens the store the guarantee check writes through (conditions trusted: no recursion) */
  ConditionalWrites(S3Requests requests, StoreOptions options, StoreGuarantees.AssumedStore assumed) {
    this.requests = requests;
    this.options = options;
    this.where = requests.where();
    this.assumed = assumed;
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
   * What the store supports. With {@code detect} this is the guarantee check ({@link StoreGuarantees}) of
   * {@link StoreGuarantee#IF_NONE_MATCH_PUT}, run once per bucket and endpoint in this JVM.
   *
   * @param trigger the user's operation that needs the answer, for messages (e.g. {@code createExclusive
   *     s3://b/k})
   * @throws ConditionalWritesUnsupportedException if the store ignores or rejects the conditions (a
   *     {@link io.objectcommit.store.guarantee.StoreGuaranteeException}; the verdict is cached: later calls throw a new one
   *     without a request)
   */
  StoreCapabilities capabilities(String trigger) throws IOException {
    switch (options.conditionalWrites()) {
      case ASSUME:
        return new StoreCapabilities(StoreCapabilities.ConditionalWrites.ASSUMED);
      case EMULATE:
        if (WARNED.putIfAbsent(where, Boolean.TRUE) == null) {
          LOG.warn("Conditional writes are EMULATED on {} ({}=emulate): HEAD then PUT, safe only with one writer"
              + " per key", where, StoreConstants.CONDITIONAL_WRITES);
        }
        return new StoreCapabilities(StoreCapabilities.ConditionalWrites.EMULATED);
      default:
        require(EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), "a conditional write", trigger);
        return new StoreCapabilities(StoreCapabilities.ConditionalWrites.VERIFIED);
    }
  }

  /**
   * The one way the store is checked: {@link StoreGuarantees#require(StoreOptions, String, String, Set,
   * StoreGuarantees.AssumedStore)} as the configured mode asks. A check that could not run (no bucket, refused
   * credentials, endpoint down) is reported as its first failure, described by {@link ProbeFailure} naming
   * {@code trigger}.
   *
   * @param who the component relying on the guarantees, named in a refusal
   * @param trigger the user's operation, named when the check itself fails
   */
  void require(Set<StoreGuarantee> needed, String who, String trigger) throws IOException {
    try {
      StoreGuarantees.require(options, where, requests.bucket(), who, needed, assumed);
    } catch (ConditionalWritesUnsupportedException | EmulationRefusedException refused) {
      throw refused;
    } catch (IOException e) {
      throw ProbeFailure.describe(e, trigger, requests.bucket(), where);
    }
  }

  /**
   * Makes sure a condition can be honoured. Where conditional writes are emulated, checks it with a HEAD now and
   * returns {@link WriteCondition#none()} for the write itself.
   *
   * @param operation the user's operation, for messages ({@code createExclusive}, {@code completeMultipartUpload})
   */
  WriteCondition prepare(String key, WriteCondition c, String operation) throws IOException {
    if (!c.isConditional()) {
      return c;
    }
    if (options.conditionalWrites() != StoreOptions.ConditionalWritesMode.EMULATE) {
      require(EnumSet.of(c.kind() == WriteCondition.Kind.IF_ABSENT ? StoreGuarantee.IF_NONE_MATCH_PUT
          : StoreGuarantee.IF_MATCH_PUT), "a conditional write", operation + " " + requests.pathOf(key));
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

  /** Forgets check results and warnings (tests). */
  static void resetProbes() {
    StoreGuarantees.reset();
    WARNED.clear();
  }
}
