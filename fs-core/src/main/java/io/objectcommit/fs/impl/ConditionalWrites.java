package io.objectcommit.fs.impl;

import static io.objectcommit.fs.impl.S3ObjectStore.isStatus;

import com.amazonaws.AmazonClientException;
import com.amazonaws.AmazonServiceException;
import com.amazonaws.AmazonWebServiceRequest;
import com.amazonaws.services.s3.model.ObjectMetadata;
import io.objectcommit.fs.ConditionalWritesUnsupportedException;
import io.objectcommit.fs.FsCoreConstants;
import io.objectcommit.fs.ObjectChangedException;
import io.objectcommit.fs.ObjectInfo;
import io.objectcommit.fs.Payload;
import io.objectcommit.fs.StoreCapabilities;
import io.objectcommit.fs.WriteCondition;
import java.io.FileNotFoundException;
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
 * Conditional writes: the request headers, what a refusal means, and whether the store honours them at all
 * (probed once per bucket and endpoint in this JVM, per {@link FsCoreConstants#CONDITIONAL_WRITES}).
 */
final class ConditionalWrites {

  private static final Logger LOG = LoggerFactory.getLogger(ConditionalWrites.class);

  /** Probe results per bucket and endpoint: capabilities, or the exception that says they are missing. */
  private static final Map<String, Object> PROBED = new ConcurrentHashMap<>();
  private static final Map<String, Boolean> WARNED = new ConcurrentHashMap<>();

  private final S3ObjectStore store;
  private final StoreOptions options;
  private final String where;

  ConditionalWrites(S3ObjectStore store, StoreOptions options, String where) {
    this.store = store;
    this.options = options;
    this.where = where;
  }

  /** Adds the condition's header to a request. */
  static void applyTo(AmazonWebServiceRequest req, WriteCondition c) {
    switch (c.kind()) {
      case IF_ABSENT:
        req.putCustomRequestHeader("If-None-Match", "*");
        break;
      case IF_MATCH:
        req.putCustomRequestHeader("If-Match", "\"" + c.etag() + "\"");
        break;
      default:
        break;
    }
  }

  StoreCapabilities capabilities() throws IOException {
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
        return detected();
    }
  }

  private StoreCapabilities detected() throws IOException {
    Object known = PROBED.get(where);
    if (known == null) {
      synchronized (PROBED) {
        known = PROBED.get(where);
        if (known == null) {
          known = probe();
          PROBED.put(where, known);
        }
      }
    }
    if (known instanceof ConditionalWritesUnsupportedException) {
      ConditionalWritesUnsupportedException cached = (ConditionalWritesUnsupportedException) known;
      throw new ConditionalWritesUnsupportedException(cached.getPath().toString(), cached.getMessage());
    }
    return (StoreCapabilities) known;
  }

  /**
   * Two exclusive PUTs of one new key: the first must succeed and the second be refused. Returns the
   * capabilities, or the exception saying the store lacks them (not thrown: cached and thrown by the caller).
   */
  private Object probe() throws IOException {
    String key = options.probePrefix() + UUID.randomUUID();
    String path = store.pathOf(key);
    Payload body = Payload.of("objectcommit conditional-write probe".getBytes(StandardCharsets.UTF_8));
    long t0 = System.nanoTime();
    try {
      try {
        store.putSingle(key, body, WriteCondition.ifAbsent());
      } catch (IOException e) {
        if (e.getCause() instanceof AmazonServiceException) {
          int status = ((AmazonServiceException) e.getCause()).getStatusCode();
          if (status == 400 || status == 501) {
            return unsupported(path, "it rejects the If-None-Match header (" + status + ")");
          }
        }
        throw e;
      }
      try {
        store.putSingle(key, body, WriteCondition.ifAbsent());
        return unsupported(path, "it ignores If-None-Match: a second exclusive PUT of " + path + " succeeded");
      } catch (FileAlreadyExistsException expected) {
        LOG.info("Conditional writes verified on {} in {} ms", where, (System.nanoTime() - t0) / 1_000_000);
        return new StoreCapabilities(StoreCapabilities.ConditionalWrites.VERIFIED);
      }
    } finally {
      store.delete(key);
    }
  }

  private ConditionalWritesUnsupportedException unsupported(String path, String why) {
    String msg = "The store at " + where + " does not support conditional writes: " + why + ". objectcommit needs"
        + " them to detect concurrent writers safely. Use a store that supports them (AWS S3 does), or set "
        + FsCoreConstants.CONDITIONAL_WRITES + "=emulate for a weaker mode that is safe with one writer per key only"
        + " (see docs/user-guide.md).";
    LOG.error(msg);
    return new ConditionalWritesUnsupportedException(path, msg);
  }

  /**
   * Makes sure a condition can be honoured. Where conditional writes are emulated, checks it with a HEAD now and
   * returns {@link WriteCondition#none()} for the write itself.
   */
  WriteCondition prepare(String key, WriteCondition c) throws IOException {
    if (!c.isConditional() || capabilities().atomicConditionalWrites()) {
      return c;
    }
    Optional<ObjectInfo> current = store.head(key);
    if (c.kind() == WriteCondition.Kind.IF_ABSENT && current.isPresent()) {
      throw refusal(store.pathOf(key), "put", c, false);
    }
    if (c.kind() == WriteCondition.Kind.IF_MATCH) {
      if (current.isEmpty()) {
        throw refusal(store.pathOf(key), "put", c, true);
      }
      if (!c.etag().equals(current.get().etag())) {
        throw refusal(store.pathOf(key), "put", c, false);
      }
    }
    return WriteCondition.none();
  }

  /**
   * A conditional PUT was refused (412, or 404 for If-Match). If an earlier attempt of the same call may have
   * succeeded (a timeout, a reset), the object now carrying our write id is our own success. Otherwise throws
   * the refusal. Returns null for other failures.
   */
  ObjectInfo onRefusedPut(AmazonClientException e, int attempt, String key, WriteCondition c, String writeId)
      throws IOException {
    boolean gone = c.kind() == WriteCondition.Kind.IF_MATCH && isStatus(e, 404);
    if (!c.isConditional() || !(isStatus(e, 412) || gone)) {
      return null;
    }
    if (attempt > 0) {
      Optional<ObjectMetadata> md = store.headMetadata(key);
      if (md.isPresent() && writeId.equals(md.get().getUserMetaDataOf(S3ObjectStore.WRITE_ID))) {
        LOG.debug("{}: a retried conditional PUT found its own earlier write", store.pathOf(key));
        return S3ObjectStore.info(key, md.get());
      }
    }
    IOException refusal = refusal(store.pathOf(key), "put", c, gone);
    refusal.initCause(e);
    throw refusal;
  }

  static IOException refusal(String path, String op, WriteCondition c, boolean gone) {
    if (c.kind() == WriteCondition.Kind.IF_ABSENT) {
      return new FileAlreadyExistsException(path + ": " + op + ": an object already exists (exclusive create,"
          + " If-None-Match: *, refused)");
    }
    if (gone) {
      return new FileNotFoundException(path + ": " + op + " (If-Match " + c.etag() + "): the object no longer"
          + " exists");
    }
    return new ObjectChangedException(path, op, c.etag());
  }

  /** Forgets probe results (tests). */
  static void resetProbes() {
    PROBED.clear();
    WARNED.clear();
  }
}
