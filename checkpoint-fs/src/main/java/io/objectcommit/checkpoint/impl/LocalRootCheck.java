package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointConstants;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.UUID;

/**
 * Checks a local-path backend's root before anything is written: it exists and is a directory, it is on the
 * expected kind of mount (so that a missing EFS/NFS mount fails instead of silently writing to the local disk
 * underneath), and this process may write there. A permission problem names the user, uid/gid and the
 * directory's owner and mode: the classic EFS pitfall is nodes that disagree on uids.
 */
public final class LocalRootCheck {

  /** Writes and removes a probe file; replaced in tests. */
  @FunctionalInterface
  public interface WriteProbe {
    void probe(Path dir) throws IOException;
  }

  static final WriteProbe REAL_PROBE = dir -> {
    Path p = dir.resolve(".ckpt-write-probe-" + UUID.randomUUID());
    Files.newByteChannel(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
    Files.delete(p);
  };

  private LocalRootCheck() {
  }

  /** Checks the root of the local-path backend as {@code options} say: see {@link #check}. */
  public static Path check(CheckpointOptions options) throws IOException {
    return check(options.authority(), options.localRoot(), options.localFsType(), options.localRequireMountPoint(),
        options.localUnsafeMount(), options.localTestNfsLikeType(), Mounts.fromProc(), REAL_PROBE);
  }

  /** @return the root's real path */
  public static Path check(String authority, Path root, String requiredFsType, boolean requireMountPoint,
      List<Mounts.Mount> mounts, WriteProbe probe) throws IOException {
    return check(authority, root, requiredFsType, requireMountPoint, NfsMountCheck.OnUnsafe.FAIL, "", mounts, probe);
  }

  /**
   * Also checks the options of an NFS mount ({@link NfsMountCheck}).
   *
   * @return the root's real path
   */
  public static Path check(String authority, Path root, String requiredFsType, boolean requireMountPoint,
      NfsMountCheck.OnUnsafe onUnsafe, String nfsLikeType, List<Mounts.Mount> mounts, WriteProbe probe)
      throws IOException {
    String what = "checkpoint root " + root + " of ckpt://" + authority + "/ (" + CheckpointConstants.LOCAL_ROOT + ")";
    if (!Files.exists(root)) {
      throw new FileNotFoundException(what + " does not exist: is the EFS/NFS volume mounted on this node?");
    }
    if (!Files.isDirectory(root)) {
      throw new IOException(what + " is not a directory");
    }
    Path real = root.toRealPath();
    Mounts.Mount m = Mounts.containing(mounts, real);
    if (!requiredFsType.isEmpty()) {
      if (m == null || !requiredFsType.equalsIgnoreCase(m.type)) {
        throw new IOException(what + " is on " + (m == null ? "no known mount" : m.type + " (mount point "
            + m.mountPoint + ")") + ", not on " + requiredFsType + " as " + CheckpointConstants.LOCAL_FS_TYPE
            + " requires: is the volume mounted? Refusing to write checkpoints to the wrong file system");
      }
    }
    if (requireMountPoint && (m == null || !m.mountPoint.equals(real))) {
      throw new IOException(what + " is not a mount point itself (it is inside " + (m == null ? "?" : m.mountPoint)
          + ") although " + CheckpointConstants.LOCAL_REQUIRE_MOUNT_POINT + " is set: is the volume mounted?");
    }
    NfsMountCheck.check(what, m, onUnsafe, nfsLikeType);
    try {
      probe.probe(real);
    } catch (AccessDeniedException e) {
      throw describeAccessDenied(e, real);
    }
    return real;
  }

  static IOException describeAccessDenied(AccessDeniedException e, Path dir) {
    String owner;
    try {
      owner = "it belongs to uid " + Files.getAttribute(dir, "unix:uid") + ", gid " + Files.getAttribute(dir, "unix:gid")
          + " with mode " + PosixFilePermissions.toString(Files.getPosixFilePermissions(dir));
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException x) {
      owner = "its owner could not be read (" + x + ")";
    }
    AccessDeniedException d = new AccessDeniedException(dir.toString(), null, "permission denied writing as user "
        + System.getProperty("user.name") + " (" + ProcessIds.describe() + "); " + owner + ". On EFS/NFS every node"
        + " must run Spark with the same uid/gid (or use an EFS access point that maps them)");
    d.initCause(e);
    return d;
  }
}
