package io.objectcommit.store.impl;

import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Conditional PUTs: one PUT with the condition's header, sent as given, and what its refusal means, including the
 * recognition of our own earlier write after an ambiguous failure. Whether the store honours the conditions is not
 * decided here: the request path trusts them, and the guarantee policy above the store
 * ({@code guarantee.GuardedObjectStore}) checks, trusts or emulates them. Sends its requests through
 * {@link S3Requests} only.
 */
final class ConditionalWrites {

  private static final Logger LOG = LoggerFactory.getLogger(ConditionalWrites.class);

  private final S3Requests requests;

  ConditionalWrites(S3Requests requests) {
    this.requests = requests;
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
    IOException refusal = c.refusedAt(requests.pathOf(key), "put", gone);
    refusal.initCause(e);
    throw refusal;
  }
}
