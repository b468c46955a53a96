package io.objectcommit.store;

import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.guarantee.StoreCheck;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** Opens {@link ObjectStore}s in the JVM's {@link StoreContext}: the entry point of the store module. */
public final class ObjectStores {

  private ObjectStores() {
  }

  /**
   * A store for one bucket ({@link StoreContext#open} of the JVM's context), configured from the {@code fs.s3a.*}
   * and {@code fs.objectcommit.*} keys (per-bucket overrides included): the S3 store inside the guarantee policy,
   * or the store of the factory named in {@value StoreConstants#STORE_FACTORY} (tests). Every component gets its
   * store here. Clients are shared between the JVM's stores with equal settings; close the store when done. Bad
   * settings fail here, naming the key.
   */
  public static ObjectStore open(String bucket, Configuration conf) throws IOException {
    return StoreContext.jvm().open(bucket, conf);
  }

  /**
   * {@link #open(String, Configuration)} for {@code who}: every request names its component, job and task attempt
   * in the attribution header ({@link io.objectcommit.store.audit.RequestAttribution}).
   */
  public static ObjectStore open(String bucket, Configuration conf, AuditContext who) throws IOException {
    return StoreContext.jvm().open(bucket, conf, who);
  }

  /** A store for the bucket of a URI such as {@code s3a://bucket/path} (the authority is the bucket). */
  public static ObjectStore open(URI uri, Configuration conf) throws IOException {
    return open(uri, conf, AuditContext.UNNAMED);
  }

  /**
   * Runs the whole guarantee check now on the bucket of {@code uri} ({@code s3a://bucket/prefix}), writing under
   * its prefix unless {@value StoreConstants#PROBE_PREFIX} is set: {@link StoreContext#checkGuarantees} of the JVM's
   * context, whatever {@value StoreConstants#CONDITIONAL_WRITES} says.
   *
   * @param operation the user's operation, named when the check cannot run
   * @param stopAtFirstFailure skip the races once a sequential guarantee failed
   */
  public static StoreCheck checkGuarantees(URI uri, Configuration conf, AuditContext who, String operation,
      boolean stopAtFirstFailure) throws IOException {
    if (uri.getHost() == null && uri.getAuthority() == null) {
      throw new IllegalArgumentException("no bucket in " + uri);
    }
    String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/+", "");
    String prefix = path.isEmpty() || path.endsWith("/") ? path : path + "/";
    return StoreContext.jvm().checkGuarantees(uri.getHost() != null ? uri.getHost() : uri.getAuthority(), prefix,
        conf, who, operation, stopAtFirstFailure);
  }

  /** {@link #open(URI, Configuration)} for {@code who}. */
  public static ObjectStore open(URI uri, Configuration conf, AuditContext who) throws IOException {
    if (uri.getHost() == null && uri.getAuthority() == null) {
      throw new IllegalArgumentException("no bucket in " + uri);
    }
    return open(uri.getHost() != null ? uri.getHost() : uri.getAuthority(), conf, who);
  }
}
