package io.objectcommit.store.guarantee;

import io.objectcommit.store.ConditionalWritesUnsupportedException;
import io.objectcommit.store.ForwardingObjectStore;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreCapabilities;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.config.ConfigReader;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The store guarantee policy around a store that sends conditions as given: refuse a store that fails a guarantee
 * a component relies on, once per bucket and endpoint ({@link StoreGuarantees}), as
 * {@value io.objectcommit.store.StoreConstants#CONDITIONAL_WRITES} says ({@link GuaranteeSettings.Mode}):
 * <ul>
 *   <li>{@code check}: before a component writes ({@link #requireGuarantees}) and before each conditional write
 *       (the {@code _PUT} guarantee of its condition; the {@code _COMPLETE} one too where the write may become a
 *       multipart upload, and for a conditional completion), the guarantees not checked yet are checked through
 *       another store that sends conditions as given ({@link StoreGuarantees.CheckStore}), writing where the
 *       component writes ({@link ProbeSite}); a check that cannot run is reported as its first failure
 *       ({@link ProbeFailure}), naming the user's operation;</li>
 *   <li>{@code detect}: as {@code check}, but Amazon S3 ({@link AmazonS3Endpoint}) is trusted without a request;</li>
 *   <li>{@code assume}: conditions pass through, nothing is checked;</li>
 *   <li>{@code emulate}: a HEAD before each conditional write decides it, and the write is sent without its
 *       condition; a component that relies on compare-and-swap is refused ({@link EmulationRefusedException}).</li>
 * </ul>
 *
 * <p>Why a decorator: the check is a client of the store (it writes, races and reads objects through the public
 * {@link ObjectStore} interface), so it cannot sit inside the request path without the store calling back into a
 * store. Here the request path ({@code impl}) knows nothing of guarantees; this class, which the store context wraps
 * around the S3 store ({@code StoreContext.open}, behind {@code ObjectStores.open}), holds the policy, and the check
 * runs through a separate store of the same client. Nor does each component hold it: every component and every
 * conditional write needs the same policy. Everything other than conditions, guarantees and closing is passed
 * through unchanged ({@link ForwardingObjectStore}). Thread-safe.
 */
public final class GuardedObjectStore extends ForwardingObjectStore {

  private final GuaranteeSettings settings;
  private final StoreGuarantees verdicts;
  private final String where;
  private final long multipartThreshold;
  private final StoreGuarantees.CheckStore checkStore;
  private final AmazonS3Endpoint endpoint;
  /** Where the component using this store writes, once it said so ({@link #requireGuarantees}); else null. */
  private volatile ProbeSite declaredSite;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * @param store the store that sends conditions as given; closed with this one
   * @param verdicts what is known of the stores, shared by the stores of one context
   * @param where the bucket and endpoint: the key of the verdicts and the name in messages (never credentials)
   * @param multipartThreshold the size from which {@code store} writes a payload as a multipart upload
   * @param checkStore opens the store the check writes through (conditions as given, statistics of its own)
   * @param endpoint whether the store is Amazon S3, which {@code detect} trusts without a check
   */
  public GuardedObjectStore(ObjectStore store, GuaranteeSettings settings, StoreGuarantees verdicts, String where,
      long multipartThreshold, StoreGuarantees.CheckStore checkStore, AmazonS3Endpoint endpoint) {
    super(store);
    this.settings = settings;
    this.verdicts = verdicts;
    this.where = where;
    this.multipartThreshold = multipartThreshold;
    this.checkStore = checkStore;
    this.endpoint = endpoint;
  }

  /** A guarded store of a store that is not Amazon S3 (tests of the check). */
  public GuardedObjectStore(ObjectStore store, GuaranteeSettings settings, StoreGuarantees verdicts, String where,
      long multipartThreshold, StoreGuarantees.CheckStore checkStore) {
    this(store, settings, verdicts, where, multipartThreshold, checkStore,
        AmazonS3Endpoint.notAmazonS3("a store of a test"));
  }

  @Override
  public ObjectInfo put(String key, Payload payload, WriteCondition condition) throws IOException {
    checkOpen();
    if (!condition.isConditional()) {
      return delegate().put(key, payload, condition);
    }
    switch (settings.mode()) {
      case ASSUME:
        return delegate().put(key, payload, condition);
      case EMULATE:
        emulate(key, condition);
        return delegate().put(key, payload, WriteCondition.none());
      default:
        require(EnumSet.of(putGuarantee(condition)), "a conditional write", operationName(condition) + " "
            + pathOf(key), probePrefixAt(siteOfWrite(key)));
        if (mayBeMultipart(payload)) {
          requireCompletion(condition, key);
        }
        return delegate().put(key, payload, condition);
    }
  }

  @Override
  public ObjectInfo completeMultipartUpload(MultipartUpload upload, List<UploadedPart> parts,
      WriteCondition condition) throws IOException {
    checkOpen();
    if (!condition.isConditional()) {
      return delegate().completeMultipartUpload(upload, parts, condition);
    }
    switch (settings.mode()) {
      case ASSUME:
        return delegate().completeMultipartUpload(upload, parts, condition);
      case EMULATE:
        emulate(upload.key(), condition);
        return delegate().completeMultipartUpload(upload, parts, WriteCondition.none());
      default:
        require(EnumSet.of(putGuarantee(condition)), "a conditional write", "completeMultipartUpload "
            + pathOf(upload.key()), probePrefixAt(siteOfWrite(upload.key())));
        requireCompletion(condition, upload.key());
        return delegate().completeMultipartUpload(upload, parts, condition);
    }
  }

  /**
   * A conditional delete is sent only where the store honours it ({@link StoreGuarantee#IF_MATCH_DELETE}: checked
   * here if no component asked {@link #conditionalDeletes} first, and refused with a
   * {@link StoreGuaranteeException} where it fails); with {@code emulate} a HEAD decides it and the delete is sent
   * without the condition.
   */
  @Override
  public void delete(String key, String ifMatchEtag) throws IOException {
    checkOpen();
    if (ifMatchEtag == null) {
      delegate().delete(key);
      return;
    }
    switch (settings.mode()) {
      case ASSUME:
        delegate().delete(key, ifMatchEtag);
        return;
      case EMULATE: {
        Optional<ObjectInfo> current = delegate().head(key);
        if (current.isEmpty()) {
          return;
        }
        if (!ifMatchEtag.equals(current.get().etag())) {
          throw new ObjectChangedException(pathOf(key), "delete (If-Match, emulated)", ifMatchEtag,
              "nothing was deleted");
        }
        delegate().delete(key);
        return;
      }
      default:
        require(EnumSet.of(StoreGuarantee.IF_MATCH_DELETE), "a conditional delete", "delete " + pathOf(key),
            probePrefixAt(siteOfWrite(key)));
        delegate().delete(key, ifMatchEtag);
    }
  }

  /**
   * {@code check}, and {@code detect} on a store other than Amazon S3: the guarantee's verdict (checked once per
   * bucket and endpoint, writing under the site); {@code detect} on Amazon S3, which documents conditional deletes
   * since 2025, and {@code assume} there: true; {@code assume} elsewhere and {@code emulate}: false (the store was
   * not checked for it, and an unconditional delete is what the components did before).
   */
  @Override
  public boolean conditionalDeletes(String component, ProbeSite site) throws IOException {
    checkOpen();
    switch (settings.mode()) {
      case ASSUME:
        return endpoint.isAmazonS3();
      case EMULATE:
        return false;
      default:
        if (trusted()) {
          verdicts.trustAmazonS3(where, endpoint);
          return true;
        }
        String probePrefix = probePrefixAt(site);
        try {
          return verdicts.holds(where, component, StoreGuarantee.IF_MATCH_DELETE, probePrefix, checkStore);
        } catch (IOException e) {
          throw ProbeFailure.describe(e, site.operation() != null ? site.operation() : component, component,
              bucket(), where, probePrefix, ConfigReader.enumValue(settings.mode()));
        }
    }
  }

  /** With no {@link ProbeSite}: the check writes under {@value StoreConstants#PROBE_PREFIX_FALLBACK}. */
  @Override
  public void requireGuarantees(Set<StoreGuarantee> needed, String component) throws IOException {
    checkOpen();
    require(needed, component, component, probePrefixAt(declaredOrFallback()));
  }

  /**
   * The site is remembered for the checks this store's later conditional writes need (a multipart completion's
   * guarantee, checked at the first such write).
   */
  @Override
  public void requireGuarantees(Set<StoreGuarantee> needed, String component, ProbeSite site) throws IOException {
    checkOpen();
    declaredSite = site;
    require(needed, component, site.operation() != null ? site.operation() : component, probePrefixAt(site));
  }

  @Override
  public StoreCapabilities capabilities() throws IOException {
    return capabilities("capabilities s3://" + bucket() + "/");
  }

  /**
   * With {@code detect} this is the check of {@link StoreGuarantee#IF_NONE_MATCH_PUT}, whose failure names
   * {@code operation}.
   *
   * @throws ConditionalWritesUnsupportedException if the store ignores or rejects the conditions (a
   *     {@link StoreGuaranteeException}; the verdict is kept: later calls throw a new one without a request)
   */
  @Override
  public StoreCapabilities capabilities(String operation) throws IOException {
    checkOpen();
    switch (settings.mode()) {
      case ASSUME:
        return new StoreCapabilities(StoreCapabilities.ConditionalWrites.ASSUMED);
      case EMULATE:
        verdicts.warnEmulated(where);
        return new StoreCapabilities(StoreCapabilities.ConditionalWrites.EMULATED);
      default:
        require(EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), "a conditional write", operation,
            probePrefixAt(declaredOrFallback()));
        return new StoreCapabilities(trusted() ? StoreCapabilities.ConditionalWrites.DOCUMENTED
            : StoreCapabilities.ConditionalWrites.VERIFIED);
    }
  }

  /** Whether the mode trusts this store without a check: {@code detect} on Amazon S3. */
  private boolean trusted() {
    return settings.mode() == GuaranteeSettings.Mode.DETECT && endpoint.isAmazonS3();
  }

  /** Where the check writes: the prefix the user set, else the site's. */
  private String probePrefixAt(ProbeSite site) {
    return settings.probePrefix().orElse(site.prefix());
  }

  /** The component's site, else {@value StoreConstants#PROBE_PREFIX_FALLBACK} (a caller that names none). */
  private ProbeSite declaredOrFallback() {
    ProbeSite declared = declaredSite;
    return declared != null ? declared : ProbeSite.fallback();
  }

  /** The site of a check a conditional write of {@code key} needs: the component's, else beside the key. */
  private ProbeSite siteOfWrite(String key) {
    ProbeSite declared = declaredSite;
    return declared != null ? declared : ProbeSite.besideKey(key);
  }

  /**
   * The one way the store is checked, as the mode asks. A check that could not run (no bucket, refused
   * credentials, endpoint down) is reported as its first failure, described by {@link ProbeFailure} naming
   * {@code trigger}.
   *
   * @param who the component relying on the guarantees, named in a refusal
   * @param trigger the user's operation, named when the check itself fails
   * @param probePrefix where the check writes
   */
  private void require(Set<StoreGuarantee> needed, String who, String trigger, String probePrefix)
      throws IOException {
    switch (settings.mode()) {
      case ASSUME:
        return;
      case EMULATE:
        verdicts.requireEmulatable(where, bucket(), who, needed);
        return;
      default:
        if (trusted()) {
          verdicts.trustAmazonS3(where, endpoint);
          return;
        }
        try {
          verdicts.require(where, bucket(), who, needed, probePrefix, checkStore);
        } catch (ConditionalWritesUnsupportedException refused) {
          throw refused;
        } catch (IOException e) {
          throw ProbeFailure.describe(e, trigger, who, bucket(), where, probePrefix,
              ConfigReader.enumValue(settings.mode()));
        }
    }
  }

  /** A conditional multipart completion is sent only where the store honours that condition on completion. */
  private void requireCompletion(WriteCondition c, String key) throws IOException {
    String who = "a conditional multipart write";
    require(EnumSet.of(c.kind() == WriteCondition.Kind.IF_ABSENT ? StoreGuarantee.IF_NONE_MATCH_COMPLETE
        : StoreGuarantee.IF_MATCH_COMPLETE), who, who, probePrefixAt(siteOfWrite(key)));
  }

  /** Emulation: a HEAD decides the condition now; the write is then sent without it. */
  private void emulate(String key, WriteCondition c) throws IOException {
    Optional<ObjectInfo> current = delegate().head(key);
    if (c.kind() == WriteCondition.Kind.IF_ABSENT && current.isPresent()) {
      throw c.refusedAt(pathOf(key), "put", false);
    }
    if (c.kind() == WriteCondition.Kind.IF_MATCH) {
      if (current.isEmpty()) {
        throw c.refusedAt(pathOf(key), "put", true);
      }
      if (!c.etag().equals(current.get().etag())) {
        throw c.refusedAt(pathOf(key), "put", false);
      }
    }
  }

  /**
   * Whether the store may send {@code p} as a multipart upload, whose condition travels on the completion: a
   * payload of known length below the threshold is one PUT; a larger one, or a stream of unknown length, may not
   * be (the store decides once it has read the threshold's worth).
   */
  private boolean mayBeMultipart(Payload p) {
    return p.length() < 0 || p.length() >= multipartThreshold;
  }

  private static StoreGuarantee putGuarantee(WriteCondition c) {
    return c.kind() == WriteCondition.Kind.IF_ABSENT ? StoreGuarantee.IF_NONE_MATCH_PUT : StoreGuarantee.IF_MATCH_PUT;
  }

  /** The {@link ObjectStore} method a write of this condition is, for messages. */
  private static String operationName(WriteCondition c) {
    return c.kind() == WriteCondition.Kind.IF_ABSENT ? "createExclusive" : "replaceIfMatch";
  }

  private void checkOpen() throws IOException {
    if (closed.get()) {
      throw new IOException("s3://" + bucket() + ": store is closed");
    }
  }

  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      super.close();
    }
  }

  @Override
  public String toString() {
    return "GuardedObjectStore{" + settings.mode() + ", " + delegate() + "}";
  }
}
