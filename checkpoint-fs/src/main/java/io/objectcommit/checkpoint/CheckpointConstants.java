package io.objectcommit.checkpoint;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.guarantee.StoreGuarantee;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Configuration keys of the checkpoint FileSystem, each beside its default. Every key can be set for one
 * authority as {@code fs.objectcommit.bucket.<authority>.<rest of the key>}: for the S3 backend the authority is
 * the bucket (so one override serves this module and the store module's keys of the same bucket); for the local-path
 * backend it is the mount's name in {@code ckpt://<name>/} (for example
 * {@code fs.objectcommit.bucket.efs1.checkpoint.local.root=/mnt/efs}). The keys are parsed once per authority,
 * when its FileSystem is initialised, into {@link io.objectcommit.checkpoint.impl.CheckpointOptions}.
 */
public final class CheckpointConstants {

  private CheckpointConstants() {
  }

  /**
   * The store guarantees the S3 backend asks for when it opens its bucket (docs/stores.md, "Who needs what"): the
   * directory manifests are created exclusively and updated by compare-and-swap, with concurrent writers into one
   * directory. Not a setting.
   */
  public static final Set<StoreGuarantee> STORE_GUARANTEES = Collections.unmodifiableSet(EnumSet.of(
      StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.IF_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE,
      StoreGuarantee.ATOMIC_COMPARE_AND_SWAP));

  /** The URI scheme this FileSystem is registered under in the documentation and tests: {@value}. */
  public static final String SCHEME = "ckpt";

  /**
   * The block size every file status reports, in bytes (32 MiB, as S3A reports by default): {@value}. Not a
   * setting: checkpoint files are read whole, so no reader splits them by block.
   */
  public static final long BLOCK_SIZE = 32L * 1024 * 1024;

  /**
   * Which backend serves an authority: {@code s3} (the authority is a bucket; manifests in the store) or
   * {@code local} (the authority is a name mapped to a mounted directory, EFS/NFS): {@value}.
   */
  public static final String BACKEND = "fs.objectcommit.checkpoint.backend";
  public static final String BACKEND_DEFAULT = "s3";

  // ------------------------------------------------------------------------------------------ S3 backend

  /** Key prefix inside the bucket under which the checkpoint namespace lives (data and manifests): {@value}. */
  public static final String S3_PREFIX = "fs.objectcommit.checkpoint.s3.prefix";
  public static final String S3_PREFIX_DEFAULT = "";

  /**
   * Where, under the namespace prefix, the store guarantee check writes (and deletes) its objects when one runs:
   * beside the manifests ({@code .ckpt/dirs/}), where the file system writes anyway, so that a job allowed to write
   * only its checkpoint's prefix may run the check ({@code fs.objectcommit.probe.prefix}, when set, wins): {@value}.
   * {@code objectcommit checkpoint gc} removes what an interrupted check left there.
   */
  public static final String PROBE_DIR = ".ckpt/probe/";

  /**
   * How long a directory manifest read by this process is trusted for the directories <em>above</em> the one an
   * operation reads; the directory itself is always revalidated (one conditional GET) unless
   * {@link #MANIFEST_TTL} allows otherwise: {@value}.
   */
  public static final String ANCESTOR_TTL = "fs.objectcommit.checkpoint.s3.ancestor-ttl";
  public static final long ANCESTOR_TTL_DEFAULT_MS = 10_000;

  /**
   * How long a manifest is trusted before a read revalidates it. 0 (the default) revalidates at every read, which
   * is what processes that share a directory need: {@value}.
   */
  public static final String MANIFEST_TTL = "fs.objectcommit.checkpoint.s3.manifest-ttl";
  public static final long MANIFEST_TTL_DEFAULT_MS = 0;

  /**
   * Compare-and-swap attempts of one namespace change before giving up under contention, for checkpoints only;
   * unset: the general {@code fs.objectcommit.cas-attempts} (default 20, see
   * {@link io.objectcommit.store.StoreConstants#CAS_ATTEMPTS}): {@value}.
   */
  public static final String CAS_ATTEMPTS = "fs.objectcommit.checkpoint.s3.cas-attempts";
  public static final int CAS_ATTEMPTS_DEFAULT = StoreConstants.CAS_ATTEMPTS_DEFAULT;

  /**
   * Reads of a directory manifest that the store reports missing although it was written (a store that lags
   * behind writes, or negatively caches an earlier 404), with backoff from 50 ms doubling to 2 s, before failing:
   * {@value}. The default waits about 30 s in all.
   */
  public static final String MISSING_READ_ATTEMPTS = "fs.objectcommit.checkpoint.s3.missing-read-attempts";
  public static final int MISSING_READ_ATTEMPTS_DEFAULT = 20;

  /**
   * Files up to this size (in bytes) are kept inside their directory's manifest instead of a data object of their
   * own, so that writing one costs one conditional PUT and reading it no GET beyond the manifest's; 0 keeps every
   * file in a data object (the format of version 1): {@value}. Spark's checkpoint files are mostly this small
   * (offset and commit logs, state deltas of small state, checksum sidecars).
   */
  public static final String INLINE_MAX_FILE_SIZE = "fs.objectcommit.checkpoint.s3.inline.max-file-size";
  public static final long INLINE_MAX_FILE_SIZE_DEFAULT = 8L * 1024;

  /**
   * The most bytes of files one directory's manifest holds inside it; a file that would go beyond gets a data object
   * of its own. It bounds the size of a manifest, which is rewritten at every change of its directory: {@value}.
   */
  public static final String INLINE_MAX_PER_DIRECTORY = "fs.objectcommit.checkpoint.s3.inline.max-per-directory";
  public static final long INLINE_MAX_PER_DIRECTORY_DEFAULT = 128L * 1024;

  /**
   * How long the publication of a file waits for its checksum file ({@code NAME.crc}, or the reverse) to be closed
   * too, when this process has both open, so that one manifest write publishes both: Spark 4.1's checksum manager
   * closes the two at once, and the partner arrives within milliseconds. The wait ends at once when the partner is
   * aborted, and applies only while the partner's close has not begun; 0 writes each file alone: {@value}.
   */
  public static final String CHECKSUM_PAIR_WAIT = "fs.objectcommit.checkpoint.s3.checksum-pair-wait";
  public static final long CHECKSUM_PAIR_WAIT_DEFAULT_MS = 500;

  /** Files up to this size are buffered in memory while written; larger ones spill to a local file: {@value}. */
  public static final String BUFFER_MEMORY = "fs.objectcommit.checkpoint.buffer.memory";
  public static final long BUFFER_MEMORY_DEFAULT = 8L * 1024 * 1024;

  /** Local directory for spilled write buffers (default: java.io.tmpdir): {@value}. */
  public static final String BUFFER_DIR = "fs.objectcommit.checkpoint.buffer.dir";

  // --------------------------------------------------------------------------------------- local backend

  /** The mounted directory an authority maps to (required for the local backend): {@value}. */
  public static final String LOCAL_ROOT = "fs.objectcommit.checkpoint.local.root";

  /**
   * The file system type the root must be on, as in /proc/mounts (for example {@code nfs4}); empty accepts any.
   * Set it, so that a missing mount fails instead of writing to the local disk underneath: {@value}.
   */
  public static final String LOCAL_FS_TYPE = "fs.objectcommit.checkpoint.local.fs-type";
  public static final String LOCAL_FS_TYPE_DEFAULT = "";

  /** Whether the root must be a mount point itself (not just a directory on some mount): {@value}. */
  public static final String LOCAL_REQUIRE_MOUNT_POINT = "fs.objectcommit.checkpoint.local.require-mount-point";
  public static final boolean LOCAL_REQUIRE_MOUNT_POINT_DEFAULT = false;

  /**
   * What to do when the root is on an NFS mount with options under which the local-path backend is not exact
   * across nodes ({@code nocto}, {@code soft}, {@code softerr}): {@code fail} (the FileSystem does not start, the
   * message names each option and its fix) or {@code warn} (one WARN line): {@value}.
   */
  public static final String LOCAL_UNSAFE_MOUNT = "fs.objectcommit.checkpoint.local.unsafe-mount";
  public static final String LOCAL_UNSAFE_MOUNT_DEFAULT = "fail";

  /**
   * Test only: mounts of this type (the NFS-like FUSE test file system, {@code fuse.nfslike}) are checked as NFS
   * mounts, with the NFS options they publish in their source field; empty (the default) in production: {@value}.
   */
  public static final String LOCAL_TEST_NFS_LIKE_TYPE = "fs.objectcommit.checkpoint.local.test.nfs-like-type";
  public static final String LOCAL_TEST_NFS_LIKE_TYPE_DEFAULT = "";

  /**
   * Test only: the scope of the owner epochs a process writes checkpoint locations with (fencing,
   * docs/checkpoint-format.md#fencing). Epochs are held JVM-wide, as a process's; FileSystem instances of one JVM
   * given different scopes play different processes. Empty (the default, the JVM's one scope) in production:
   * {@value}.
   */
  public static final String TEST_FENCE_SCOPE = "fs.objectcommit.checkpoint.test.fence-scope";
  public static final String TEST_FENCE_SCOPE_DEFAULT = "";

  /** fsync file and directory on close (durability across a machine crash): {@value}. */
  public static final String LOCAL_FSYNC = "fs.objectcommit.checkpoint.local.fsync";
  public static final boolean LOCAL_FSYNC_DEFAULT = true;
}
