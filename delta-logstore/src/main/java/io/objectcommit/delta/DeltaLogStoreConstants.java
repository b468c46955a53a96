package io.objectcommit.delta;

import io.objectcommit.store.guarantee.StoreGuarantee;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a Spark application sets to commit Delta tables through {@link ConditionalPutLogStore}, and the store
 * guarantees the log store relies on. The log store has no settings of its own: the store it writes through is
 * configured by the usual {@code fs.s3a.*} and {@code fs.objectcommit.*} keys (docs/user-guide.md, "Delta Lake
 * tables").
 */
public final class DeltaLogStoreConstants {

  private DeltaLogStoreConstants() {
  }

  /** Delta's setting naming the log store of {@code s3a://} tables: {@value}. Set it to {@link #LOG_STORE_CLASS}. */
  public static final String SPARK_LOG_STORE_S3A = "spark.delta.logStore.s3a.impl";

  /** Delta's setting naming the log store of {@code s3://} tables: {@value}. Set it to {@link #LOG_STORE_CLASS}. */
  public static final String SPARK_LOG_STORE_S3 = "spark.delta.logStore.s3.impl";

  /** The class to name in {@link #SPARK_LOG_STORE_S3A} and {@link #SPARK_LOG_STORE_S3}: {@value}. */
  public static final String LOG_STORE_CLASS = "io.objectcommit.delta.ConditionalPutLogStore";

  /**
   * The store guarantees the log store asks for when it first opens a bucket (docs/stores.md, "Who needs what"): a
   * commit file is created with {@code If-None-Match: *}, and of writers racing for one version exactly one must
   * win. A commit above the multipart threshold needs {@code IF_NONE_MATCH_COMPLETE} too, which the store checks at
   * that write, as for every component. Not a setting.
   */
  public static final Set<StoreGuarantee> STORE_GUARANTEES = Collections.unmodifiableSet(EnumSet.of(
      StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE));

  /**
   * Where, under a table's root, the store guarantee check writes (and deletes) its probe objects when it runs for
   * the log store: hidden from Delta (names starting with '.' are not data files, and the log directory is left
   * alone): {@value}.
   */
  public static final String PROBE_DIR = ".objectcommit/probe/";
}
