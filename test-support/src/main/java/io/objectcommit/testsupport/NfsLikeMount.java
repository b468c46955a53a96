package io.objectcommit.testsupport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of the NFS-like test file system: {@code tools/nfslike/nfslike.py} (a FUSE file system in Python,
 * fusepy from PyPI in a cached virtualenv) mounted over a shared backing directory with explicit NFS client caching
 * ({@link NfsClientOptions}). Mount the same backing directory several times for several clients, each with its
 * own caches, as the nodes of a cluster are separate clients of one EFS file system.
 *
 * <p>The FUSE process runs under {@code tools/supervise.py} (through {@link SupervisedServer}): it dies with this
 * JVM, and on SIGTERM it unmounts itself. {@link #close()} unmounts with {@code fusermount3 -u} first. Such mounts
 * show in {@code /proc/mounts} as type {@value #FS_TYPE} with the modelled NFS options in the source field
 * ({@code nfslike:vers=4.1;lookupcache=pos;hard}).
 */
public final class NfsLikeMount implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(NfsLikeMount.class);
  /** The file system type of the mounts in /proc/mounts. */
  public static final String FS_TYPE = "fuse.nfslike";
  private static final String RESOURCE_DIR = "nfslike/";
  private static final List<String> SCRIPTS = List.of("nfslike-host", "nfslike.py");
  static final Duration PROVISION_TIMEOUT = Duration.ofMinutes(5);
  static final Duration MOUNT_TIMEOUT = Duration.ofSeconds(30);
  private static final String STATS_XATTR = "nfslike.stats";

  private final Path mountPoint;
  private final NfsClientOptions options;
  private final SupervisedServer process;
  private boolean closed;

  private NfsLikeMount(Path mountPoint, NfsClientOptions options, SupervisedServer process) {
    this.mountPoint = mountPoint;
    this.options = options;
    this.process = process;
  }

  /** Why NFS-like mounts cannot be made here, or empty when they can. */
  public static Optional<String> unavailableReason() {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
      return Optional.of("the NFS-like file system needs Linux FUSE");
    }
    if (!Files.exists(Path.of("/dev/fuse"))) {
      return Optional.of("/dev/fuse is missing (no FUSE in this kernel or container)");
    }
    if (!"root".equals(System.getProperty("user.name")) && !Files.isWritable(Path.of("/dev/fuse"))) {
      return Optional.of("/dev/fuse is not usable by user " + System.getProperty("user.name") + " (run as root)");
    }
    if (!onPath("fusermount3")) {
      return Optional.of("fusermount3 is missing (Debian/Ubuntu: apt-get install fuse3; .ci/run installs it)");
    }
    if (!hasLibFuse2()) {
      return Optional.of("libfuse.so.2, which fusepy loads, is missing (Debian/Ubuntu: apt-get install libfuse2)");
    }
    return Optional.empty();
  }

  /** Skips the calling test (JUnit assumption) with the reason when NFS-like mounts cannot be made here. */
  public static void assumeAvailable() {
    Optional<String> why = unavailableReason();
    Assumptions.assumeTrue(why.isEmpty(), () -> "NFS-like FUSE mounts unavailable: " + why.orElse(""));
  }

  /**
   * Mounts {@code backing} at {@code mountPoint} (created if missing) as one client.
   *
   * @param workDir where the scripts are extracted and the instance's log is kept (under {@code target/})
   */
  public static NfsLikeMount mount(Path backing, Path mountPoint, NfsClientOptions options, Path workDir)
      throws IOException {
    Files.createDirectories(backing);
    Files.createDirectories(mountPoint);
    Path scripts = SupervisedServer.extractScripts(workDir.resolve("nfslike-scripts"), RESOURCE_DIR, SCRIPTS);
    Path python = provision(scripts, workDir);
    if (isMounted(mountPoint)) {
      unmount(mountPoint, true); // left over by a killed run
    }
    Path instanceDir = Files.createDirectories(workDir.resolve("nfslike-" + mountPoint.getFileName() + "-"
        + System.nanoTime()));
    List<String> command = new ArrayList<>(List.of(python.toString(), scripts.resolve("nfslike.py").toString(),
        backing.toString(), mountPoint.toString()));
    command.addAll(options.args());
    LOG.info("Mounting NFS-like client {} of {} ({}), log {}", mountPoint, backing, options,
        instanceDir.resolve("nfslike.log"));
    SupervisedServer process = SupervisedServer.start("NFS-like mount " + mountPoint, 0, "python3", scripts,
        instanceDir, "nfslike.log", "nfslike.pid", List.of(), command, Map.of(), "nfslike-unmount-"
        + mountPoint.getFileName());
    NfsLikeMount m = new NfsLikeMount(mountPoint, options, process);
    try {
      m.awaitMounted();
    } catch (IOException | RuntimeException e) {
      m.close();
      throw e;
    }
    return m;
  }

  private static Path provision(Path scripts, Path workDir) throws IOException {
    SupervisedServer.ScriptResult r = SupervisedServer.runScript(
        List.of("bash", scripts.resolve("nfslike-host").toString(), "provision"),
        workDir.resolve("nfslike-provision.log"), PROVISION_TIMEOUT, "provisioning the NFS-like file system");
    if (r.exitCode() != 0) {
      throw new IOException("provisioning the NFS-like file system (fusepy) failed (exit " + r.exitCode() + "):\n"
          + SupervisedServer.tail(r.stderr(), 30));
    }
    return r.lastLinePath();
  }

  private void awaitMounted() throws IOException {
    long deadline = System.nanoTime() + MOUNT_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (isMounted(mountPoint)) {
        return;
      }
      if (!process.alive()) {
        throw new IOException("the NFS-like file system exited before mounting " + mountPoint + "; log:\n"
            + process.logTail(40));
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while mounting " + mountPoint, e);
      }
    }
    throw new IOException(mountPoint + " was not mounted within " + MOUNT_TIMEOUT + "; log:\n" + process.logTail(40));
  }

  /** Whether /proc/mounts lists {@code dir} as a mount point of an NFS-like mount. */
  static boolean isMounted(Path dir) throws IOException {
    return procMountsLine(dir).isPresent();
  }

  /** The /proc/mounts line of the NFS-like mount at {@code dir}. */
  static Optional<String> procMountsLine(Path dir) throws IOException {
    String target = dir.toAbsolutePath().normalize().toString().replace(" ", "\\040");
    for (String line : Files.readAllLines(Path.of("/proc/mounts"), StandardCharsets.UTF_8)) {
      String[] f = line.split(" ");
      if (f.length >= 3 && f[1].equals(target) && f[2].equals(FS_TYPE)) {
        return Optional.of(line);
      }
    }
    return Optional.empty();
  }

  private static void unmount(Path dir, boolean lazy) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("fusermount3", lazy ? "-uz" : "-u", dir.toString()));
    Path err = Files.createTempFile("fusermount", ".err");
    try {
      SupervisedServer.ScriptResult r = SupervisedServer.runScript(cmd, err, Duration.ofSeconds(30),
          "unmounting " + dir);
      if (r.exitCode() != 0) {
        throw new IOException("fusermount3 -u " + dir + " failed (exit " + r.exitCode() + "): " + r.stderr().trim());
      }
    } finally {
      Files.deleteIfExists(err);
    }
  }

  /** The mounted directory: this client's view of the backing directory. */
  public Path path() {
    return mountPoint;
  }

  public NfsClientOptions options() {
    return options;
  }

  /** This mount's /proc/mounts line. */
  public String procMountsLine() throws IOException {
    return procMountsLine(mountPoint).orElseThrow(() -> new IOException(mountPoint + " is not mounted"));
  }

  /**
   * Round trips to the server so far, by NFS operation (GETATTR, LOOKUP, READDIR, OPEN, CREATE, READ, WRITE,
   * COMMIT, LINK, RENAME, REMOVE, CLOSE...), and cache answers ({@code negative_hit}, {@code readdir_hit}).
   */
  public Map<String, Long> roundTrips() throws IOException {
    UserDefinedFileAttributeView v = Files.getFileAttributeView(mountPoint, UserDefinedFileAttributeView.class);
    ByteBuffer b = ByteBuffer.allocate(64 * 1024); // not size(): the counts grow between two calls
    v.read(STATS_XATTR, b);
    String json = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
    Map<String, Long> out = new TreeMap<>();
    Matcher m = Pattern.compile("\"([A-Za-z_]+)\": (\\d+)").matcher(json);
    while (m.find()) {
      out.put(m.group(1), Long.parseLong(m.group(2)));
    }
    return out;
  }

  /** Sum of the round trips (cache hits excluded). */
  public long totalRoundTrips() throws IOException {
    return roundTrips().entrySet().stream().filter(e -> !e.getKey().endsWith("_hit"))
        .mapToLong(Map.Entry::getValue).sum();
  }

  /** Unmounts ({@code fusermount3 -u}; lazily if busy) and stops the process. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException first = null;
    try {
      if (isMounted(mountPoint)) {
        try {
          unmount(mountPoint, false);
        } catch (IOException busy) {
          LOG.warn("{}; unmounting lazily", busy.getMessage());
          unmount(mountPoint, true);
        }
      }
    } catch (IOException e) {
      first = e;
    } finally {
      process.stop();
    }
    if (first != null) {
      throw first;
    }
  }

  private static boolean onPath(String exe) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String d : path.split(":")) {
      if (Files.isExecutable(Path.of(d, exe))) {
        return true;
      }
    }
    return Files.isExecutable(Path.of("/usr/bin", exe)) || Files.isExecutable(Path.of("/bin", exe));
  }

  private static boolean hasLibFuse2() {
    for (String d : List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib")) {
      if (Files.exists(Path.of(d, "libfuse.so.2"))) {
        return true;
      }
    }
    return false;
  }
}
