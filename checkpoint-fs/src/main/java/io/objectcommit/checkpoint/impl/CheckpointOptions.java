package io.objectcommit.checkpoint.impl;

import static io.objectcommit.checkpoint.CheckpointConstants.ANCESTOR_TTL;
import static io.objectcommit.checkpoint.CheckpointConstants.ANCESTOR_TTL_DEFAULT_MS;
import static io.objectcommit.checkpoint.CheckpointConstants.BACKEND;
import static io.objectcommit.checkpoint.CheckpointConstants.BACKEND_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.BUFFER_DIR;
import static io.objectcommit.checkpoint.CheckpointConstants.BUFFER_MEMORY;
import static io.objectcommit.checkpoint.CheckpointConstants.BUFFER_MEMORY_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.CAS_ATTEMPTS;
import static io.objectcommit.checkpoint.CheckpointConstants.CHECKSUM_PAIR_WAIT;
import static io.objectcommit.checkpoint.CheckpointConstants.CHECKSUM_PAIR_WAIT_DEFAULT_MS;
import static io.objectcommit.checkpoint.CheckpointConstants.INLINE_MAX_FILE_SIZE;
import static io.objectcommit.checkpoint.CheckpointConstants.INLINE_MAX_FILE_SIZE_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.INLINE_MAX_PER_DIRECTORY;
import static io.objectcommit.checkpoint.CheckpointConstants.INLINE_MAX_PER_DIRECTORY_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_FSYNC;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_FSYNC_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_FS_TYPE;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_FS_TYPE_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_REQUIRE_MOUNT_POINT;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_REQUIRE_MOUNT_POINT_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_ROOT;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_TEST_NFS_LIKE_TYPE;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_TEST_NFS_LIKE_TYPE_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_UNSAFE_MOUNT;
import static io.objectcommit.checkpoint.CheckpointConstants.LOCAL_UNSAFE_MOUNT_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.MANIFEST_TTL;
import static io.objectcommit.checkpoint.CheckpointConstants.MANIFEST_TTL_DEFAULT_MS;
import static io.objectcommit.checkpoint.CheckpointConstants.MISSING_READ_ATTEMPTS;
import static io.objectcommit.checkpoint.CheckpointConstants.MISSING_READ_ATTEMPTS_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.S3_PREFIX;
import static io.objectcommit.checkpoint.CheckpointConstants.S3_PREFIX_DEFAULT;
import static io.objectcommit.checkpoint.CheckpointConstants.TEST_FENCE_SCOPE;
import static io.objectcommit.checkpoint.CheckpointConstants.TEST_FENCE_SCOPE_DEFAULT;

import io.objectcommit.store.CompareAndSwap;
import io.objectcommit.store.config.ConfigReader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * The checkpoint FileSystem's settings for one authority, parsed once through {@link ConfigReader} (so every key
 * has its per-authority form {@code fs.objectcommit.bucket.<authority>.<rest>}, and a bad value fails naming the
 * key). For the S3 backend the authority is the bucket; for the local-path backend it is the mount's name.
 * Immutable. Keys and defaults: {@link io.objectcommit.checkpoint.CheckpointConstants}.
 */
public final class CheckpointOptions {

  /** Which backend serves the authority ({@link io.objectcommit.checkpoint.CheckpointConstants#BACKEND}). */
  public enum BackendKind {
    S3, LOCAL
  }

  private final String authority;
  private final BackendKind backend;
  private final long bufferMemory;
  private final Path bufferDir;
  private final String s3Prefix;
  private final long ancestorTtlMs;
  private final long manifestTtlMs;
  private final int casAttempts;
  private final int missingReadAttempts;
  private final long inlineMaxFileSize;
  private final long inlineMaxPerDirectory;
  private final long checksumPairWaitMs;
  private final Path localRoot;
  private final String localFsType;
  private final boolean localRequireMountPoint;
  private final boolean localFsync;
  private final NfsMountCheck.OnUnsafe localUnsafeMount;
  private final String localTestNfsLikeType;
  private final String testFenceScope;

  private CheckpointOptions(ConfigReader r, String scheme) {
    this.authority = r.bucket();
    this.backend = r.getEnum(BACKEND, BackendKind.class, BackendKind.valueOf(BACKEND_DEFAULT.toUpperCase(Locale.ROOT)));
    this.bufferMemory = r.getBytes(BUFFER_MEMORY, BUFFER_MEMORY_DEFAULT, 0);
    this.bufferDir = Paths.get(r.get(BUFFER_DIR, System.getProperty("java.io.tmpdir")), "objectcommit-ckpt");
    String prefix = r.get(S3_PREFIX, S3_PREFIX_DEFAULT);
    this.s3Prefix = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
    this.ancestorTtlMs = r.getDurationMs(ANCESTOR_TTL, ANCESTOR_TTL_DEFAULT_MS, 0);
    this.manifestTtlMs = r.getDurationMs(MANIFEST_TTL, MANIFEST_TTL_DEFAULT_MS, 0);
    this.casAttempts = CompareAndSwap.attempts(r, CAS_ATTEMPTS);
    this.missingReadAttempts = r.getInt(MISSING_READ_ATTEMPTS, MISSING_READ_ATTEMPTS_DEFAULT, 1, 1000);
    this.inlineMaxFileSize = r.getBytes(INLINE_MAX_FILE_SIZE, INLINE_MAX_FILE_SIZE_DEFAULT, 0);
    this.inlineMaxPerDirectory = r.getBytes(INLINE_MAX_PER_DIRECTORY, INLINE_MAX_PER_DIRECTORY_DEFAULT, 0);
    this.checksumPairWaitMs = r.getDurationMs(CHECKSUM_PAIR_WAIT, CHECKSUM_PAIR_WAIT_DEFAULT_MS, 0);
    String root = r.get(LOCAL_ROOT, null);
    if (backend == BackendKind.LOCAL && root == null) {
      throw new IllegalArgumentException(scheme + "://" + authority + "/ uses the local backend but neither "
          + LOCAL_ROOT + " nor " + ConfigReader.perBucketKey(LOCAL_ROOT, authority) + " is set (the EFS/NFS mount"
          + " directory)");
    }
    this.localRoot = root == null ? null : Paths.get(root);
    this.localFsType = r.get(LOCAL_FS_TYPE, LOCAL_FS_TYPE_DEFAULT);
    this.localRequireMountPoint = r.getBoolean(LOCAL_REQUIRE_MOUNT_POINT, LOCAL_REQUIRE_MOUNT_POINT_DEFAULT);
    this.localFsync = r.getBoolean(LOCAL_FSYNC, LOCAL_FSYNC_DEFAULT);
    this.localUnsafeMount = r.getEnum(LOCAL_UNSAFE_MOUNT, NfsMountCheck.OnUnsafe.class,
        NfsMountCheck.OnUnsafe.valueOf(LOCAL_UNSAFE_MOUNT_DEFAULT.toUpperCase(Locale.ROOT)));
    this.localTestNfsLikeType = r.get(LOCAL_TEST_NFS_LIKE_TYPE, LOCAL_TEST_NFS_LIKE_TYPE_DEFAULT);
    this.testFenceScope = r.get(TEST_FENCE_SCOPE, TEST_FENCE_SCOPE_DEFAULT);
  }

  /**
   * Parses the options of one authority.
   *
   * @param scheme for messages ({@code ckpt})
   * @throws IllegalArgumentException naming the key of a bad or missing value
   */
  public static CheckpointOptions from(ConfigReader r, String scheme) {
    return new CheckpointOptions(r, scheme);
  }

  public String authority() {
    return authority;
  }

  public BackendKind backend() {
    return backend;
  }

  /** Files up to this size are buffered in memory while written. */
  public long bufferMemory() {
    return bufferMemory;
  }

  /** Where larger files spill while written. */
  public Path bufferDir() {
    return bufferDir;
  }

  /** Key prefix of the namespace in the bucket: "" or ending with '/'. */
  public String s3Prefix() {
    return s3Prefix;
  }

  public long ancestorTtlMs() {
    return ancestorTtlMs;
  }

  public long manifestTtlMs() {
    return manifestTtlMs;
  }

  public int casAttempts() {
    return casAttempts;
  }

  public int missingReadAttempts() {
    return missingReadAttempts;
  }

  /** Files up to this size are kept inside their directory's manifest (0: none). */
  public long inlineMaxFileSize() {
    return inlineMaxFileSize;
  }

  /** The most bytes of files one manifest holds inside it. */
  public long inlineMaxPerDirectory() {
    return inlineMaxPerDirectory;
  }

  /** How long a file's publication waits for its checksum file's, to write both in one manifest write (0: never). */
  public long checksumPairWaitMs() {
    return checksumPairWaitMs;
  }

  /** The mount directory of the local backend; null when not set (then the backend is S3). */
  public Path localRoot() {
    return localRoot;
  }

  public String localFsType() {
    return localFsType;
  }

  public boolean localRequireMountPoint() {
    return localRequireMountPoint;
  }

  public boolean localFsync() {
    return localFsync;
  }

  /** What to do about unsafe NFS mount options. */
  public NfsMountCheck.OnUnsafe localUnsafeMount() {
    return localUnsafeMount;
  }

  /** Test only: the mount type checked as NFS besides nfs/nfs4; empty in production. */
  public String localTestNfsLikeType() {
    return localTestNfsLikeType;
  }

  /** Test only: the scope of the owner epochs this instance writes with; empty (the JVM's) in production. */
  public String testFenceScope() {
    return testFenceScope;
  }

  @Override
  public String toString() {
    return "CheckpointOptions{" + authority + ", backend " + ConfigReader.enumValue(backend)
        + (backend == BackendKind.LOCAL ? ", root " + localRoot + ", fs type '" + localFsType + "', mount point "
        + localRequireMountPoint + ", fsync " + localFsync + ", unsafe mount " + ConfigReader.enumValue(localUnsafeMount)
        : ", prefix '" + s3Prefix + "', ancestor ttl " + ancestorTtlMs + " ms, manifest ttl " + manifestTtlMs
        + " ms, cas attempts " + casAttempts + ", missing-read attempts " + missingReadAttempts + ", inline files up to "
        + inlineMaxFileSize + " bytes, " + inlineMaxPerDirectory + " per directory, checksum pair wait "
        + checksumPairWaitMs + " ms")
        + ", buffer " + bufferMemory + " bytes in memory, then " + bufferDir + "}";
  }
}
