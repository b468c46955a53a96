package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.checkpoint.UnsafeMountException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NFS mount options under which the local-path backend cannot be exact across nodes, read from the mount's
 * {@code /proc/mounts} line when the backend starts.
 *
 * <p>The backend is exact with the Linux client's default caching and with EFS's recommended options: it lists a
 * directory by opening it, which the client revalidates (close-to-open applies to directories as to files), and
 * when a name is reported missing it opens the parent directory and asks again, which drops a negative lookup
 * cached before another node created the name. What it cannot repair:
 * <ul>
 *   <li>{@code nocto}: opening no longer revalidates, so listings and lookups are served from caches that may be
 *       up to {@code acdirmax} old (shown by the NFS-like test file system);</li>
 *   <li>{@code soft} / {@code softerr}: the client gives up after {@code retrans} timeouts and reports an error
 *       for a write, link or rename that the server may still apply, or may lose written data (nfs(5)).</li>
 * </ul>
 */
public final class NfsMountCheck {

  private static final Logger LOG = LoggerFactory.getLogger(NfsMountCheck.class);

  /** What to do when the mount has unsafe options ({@link CheckpointConstants#LOCAL_UNSAFE_MOUNT}). */
  public enum OnUnsafe {
    FAIL, WARN
  }

  /** One unsafe option. */
  public static final class Finding {
    public final String option;
    public final String why;
    public final String fix;

    Finding(String option, String why, String fix) {
      this.option = option;
      this.why = why;
      this.fix = fix;
    }

    @Override
    public String toString() {
      return option + ": " + why + "; fix: " + fix;
    }
  }

  private NfsMountCheck() {
  }

  /** Parses a comma-separated option list ({@code rw,vers=4.1,hard}) into an ordered name to value map. */
  static Map<String, String> parseOptions(String options) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String o : options.split("[,;]")) {
      o = o.trim();
      if (o.isEmpty()) {
        continue;
      }
      int eq = o.indexOf('=');
      out.put(eq < 0 ? o : o.substring(0, eq), eq < 0 ? "" : o.substring(eq + 1));
    }
    return out;
  }

  /**
   * The NFS options of a mount: those of an {@code nfs}/{@code nfs4} mount, or, for a mount of type
   * {@code nfsLikeType} (the test file system, see {@link CheckpointConstants#LOCAL_TEST_NFS_LIKE_TYPE}), those it
   * publishes in its source field after {@code "nfslike:"}. Empty for any other mount.
   */
  static Optional<Map<String, String>> nfsOptions(Mounts.Mount m, String nfsLikeType) {
    String type = m.type.toLowerCase(Locale.ROOT);
    if (type.equals("nfs") || type.equals("nfs4")) {
      return Optional.of(parseOptions(m.options));
    }
    if (!nfsLikeType.isEmpty() && m.type.equals(nfsLikeType) && m.source.startsWith("nfslike:")) {
      return Optional.of(parseOptions(m.source.substring("nfslike:".length())));
    }
    return Optional.empty();
  }

  /** The unsafe options among {@code options}. */
  static List<Finding> findings(Map<String, String> options) {
    List<Finding> out = new ArrayList<>();
    if (options.containsKey("nocto")) {
      out.add(new Finding("nocto", "without close-to-open a node lists directories and looks up names from caches"
          + " that can be up to acdirmax (60 s by default) old, missing checkpoint files other nodes wrote",
          "remove nocto (close-to-open is the default)"));
    }
    for (String soft : List.of("soft", "softerr")) {
      if (options.containsKey(soft)) {
        out.add(new Finding(soft, "a soft mount gives up after retrans timeouts: a write, link or rename can be"
            + " reported failed although the server applies it later, and written data can be lost",
            "mount with hard (EFS: nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport)"));
      }
    }
    return out;
  }

  /**
   * Checks the mount of a local-path root.
   *
   * @param what the root and authority, for messages
   * @throws UnsafeMountException when unsafe options are found and {@code onUnsafe} is FAIL
   */
  static void check(String what, Mounts.Mount m, OnUnsafe onUnsafe, String nfsLikeType) throws UnsafeMountException {
    if (m == null) {
      return;
    }
    Optional<Map<String, String>> options = nfsOptions(m, nfsLikeType);
    if (options.isEmpty()) {
      return;
    }
    List<Finding> found = findings(options.get());
    if (found.isEmpty()) {
      LOG.debug("{}: NFS mount {} options {} are safe", what, m.mountPoint, options.get().keySet());
      return;
    }
    List<String> names = new ArrayList<>();
    StringBuilder msg = new StringBuilder(what).append(" is on the NFS mount ").append(m.mountPoint)
        .append(" with options under which checkpoints are not exact across nodes: ");
    for (Finding f : found) {
      names.add(f.option);
      msg.append(f).append(". ");
    }
    if (onUnsafe == OnUnsafe.WARN) {
      LOG.warn("{}(continuing because {} is warn)", msg, CheckpointConstants.LOCAL_UNSAFE_MOUNT);
      return;
    }
    msg.append("Remount, or set ").append(CheckpointConstants.LOCAL_UNSAFE_MOUNT).append("=warn to accept the risk");
    throw new UnsafeMountException(m.mountPoint.toString(), names, msg.toString());
  }
}
