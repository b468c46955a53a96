package io.objectcommit.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An S3 server other than LocalStack (moto, S3Proxy, S3Mock) as a local process on a free 127.0.0.1 port.
 *
 * <p>moto is installed into a cached virtualenv by {@code tools/stores/store-host}; the Java servers' jars are
 * resolved by Maven into the local repository (test-support's build copies them, which downloads them). Every
 * server runs under {@code tools/stores/supervise.py}, which stops it when this JVM exits, even when the JVM is
 * killed. S3Mock binds its plain-HTTP connector on every interface whatever it is told, so it runs in a private
 * network namespace and the supervisor forwards 127.0.0.1:port into it. Logs stay in the instance directory
 * under {@code target/}.
 */
public final class StoreHost implements RunningEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(StoreHost.class);
  private static final String RESOURCE_DIR = "stores/";
  private static final List<String> SCRIPTS = List.of("store-host", "supervise.py");
  static final Duration PROVISION_TIMEOUT = Duration.ofMinutes(10);
  static final Duration START_TIMEOUT = Duration.ofSeconds(180);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  /** Credentials the harness configures on the servers that check signatures. */
  static final String ACCESS_KEY = "objectcommit-test";
  static final String SECRET_KEY = "objectcommit-test-secret";
  private static final int S3MOCK_INNER_PORT = 9090;

  private final S3Store store;
  private final Process supervisor;
  private final Path instanceDir;
  private final Path log;
  private final int port;
  private final S3Endpoint endpoint;
  private final Thread shutdownHook;

  private StoreHost(S3Store store, Process supervisor, Path instanceDir, int port) {
    this.store = store;
    this.supervisor = supervisor;
    this.instanceDir = instanceDir;
    this.log = instanceDir.resolve("server.log");
    this.port = port;
    this.endpoint = new S3Endpoint(S3Endpoint.Kind.STORE, "http://127.0.0.1:" + port, S3TestSettings.DEFAULT_REGION,
        ACCESS_KEY, SECRET_KEY, true);
    this.shutdownHook = new Thread(this::stopProcesses, "store-host-stop-" + port);
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts the store and waits until it answers S3 requests. */
  public static StoreHost start(S3Store store, Path workDir) throws IOException {
    if (store == S3Store.LOCALSTACK || store == S3Store.EXTERNAL) {
      throw new IllegalArgumentException(store + " is not started by StoreHost");
    }
    Files.createDirectories(workDir);
    Path scripts = extractScripts(workDir.resolve("store-scripts"));
    IOException last = null;
    for (int attempt = 1; attempt <= 3; attempt++) { // a free port can be taken between probe and bind
      int port = freePort();
      Path instanceDir = workDir.resolve(store.id() + "-" + port + "-" + System.currentTimeMillis());
      Files.createDirectories(instanceDir);
      List<String> command = command(store, scripts, instanceDir, port);
      try {
        return launch(store, scripts, command, instanceDir, port);
      } catch (IOException e) {
        last = e;
        LOG.warn("{} attempt {} on port {} failed: {}", store.description(), attempt, port, e.getMessage());
      }
    }
    throw last;
  }

  private static List<String> command(S3Store store, Path scripts, Path dir, int port) throws IOException {
    List<String> c = new ArrayList<>();
    switch (store) {
      case MOTO:
      case MOTO_OLD:
        c.add(provisionMoto(scripts, store, dir).toString());
        c.addAll(List.of("-H", "127.0.0.1", "-p", Integer.toString(port)));
        return c;
      case S3PROXY:
      case S3PROXY_OLD: {
        Path data = Files.createDirectories(dir.resolve("data"));
        Properties p = new Properties();
        p.setProperty("s3proxy.endpoint", "http://127.0.0.1:" + port);
        p.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        p.setProperty("s3proxy.identity", ACCESS_KEY);
        p.setProperty("s3proxy.credential", SECRET_KEY);
        p.setProperty("jclouds.provider", "filesystem");
        p.setProperty("jclouds.filesystem.basedir", data.toString());
        Path props = dir.resolve("s3proxy.properties");
        try (var out = Files.newOutputStream(props)) {
          p.store(out, "written by io.objectcommit.testsupport.StoreHost");
        }
        c.addAll(javaCommand());
        c.addAll(List.of("-jar", jar(store).toString(), "--properties", props.toString()));
        return c;
      }
      case S3MOCK:
        c.addAll(javaCommand());
        c.addAll(List.of("-jar", jar(store).toString(), "--server.ssl.enabled=false",
            "--server.address=127.0.0.1", "--server.port=" + S3MOCK_INNER_PORT, "--http.port=" + (S3MOCK_INNER_PORT + 1),
            "--com.adobe.testing.s3mock.store.root=" + Files.createDirectories(dir.resolve("data"))));
        return c;
      default:
        throw new IllegalArgumentException(store.toString());
    }
  }

  private static List<String> javaCommand() {
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true");
  }

  /** The server's jar in the local Maven repository (test-support's build downloads it there). */
  static Path jar(S3Store store) throws IOException {
    String rel;
    switch (store) {
      case S3PROXY:
        rel = "org/gaul/s3proxy/" + version("s3proxy.version") + "/s3proxy-" + version("s3proxy.version")
            + "-jar-with-dependencies.jar";
        break;
      case S3PROXY_OLD:
        rel = "org/gaul/s3proxy/" + version("s3proxy.old.version") + "/s3proxy-" + version("s3proxy.old.version")
            + "-jar-with-dependencies.jar";
        break;
      case S3MOCK:
        rel = "com/adobe/testing/s3mock/" + version("s3mock.version") + "/s3mock-" + version("s3mock.version")
            + "-exec.jar";
        break;
      default:
        throw new IllegalArgumentException(store.toString());
    }
    Path repo = Path.of(System.getProperty("maven.repo.local",
        Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
    Path jar = repo.resolve(rel);
    if (!Files.isRegularFile(jar)) {
      throw new IOException(store.description() + ": " + jar + " is missing. Build test-support once"
          + " ('mvn -pl test-support package', which downloads it from Maven Central) or set -Dmaven.repo.local");
    }
    return jar;
  }

  private static String version(String key) throws IOException {
    Properties p = new Properties();
    try (InputStream in = StoreHost.class.getResourceAsStream("versions.properties")) {
      if (in == null) {
        throw new IOException("test-support jar lacks versions.properties");
      }
      p.load(in);
    }
    String v = p.getProperty(key);
    if (v == null || v.startsWith("${")) {
      throw new IOException("versions.properties lacks " + key);
    }
    return v;
  }

  private static Path provisionMoto(Path scripts, S3Store store, Path dir) throws IOException {
    Path out = dir.resolve("provision.log");
    ProcessBuilder pb = new ProcessBuilder("bash", scripts.resolve("store-host").toString(), "provision", store.id())
        .redirectError(ProcessBuilder.Redirect.to(out.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process p = pb.start();
    String stdout;
    try (InputStream in = p.getInputStream()) {
      stdout = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int code = waitFor(p, PROVISION_TIMEOUT, "provisioning " + store.description());
    if (code != 0) {
      throw new IOException("provisioning " + store.description() + " failed (exit " + code + "):\n"
          + LocalStackHost.tail(Files.readString(out), 30));
    }
    String[] lines = stdout.trim().split("\n");
    return Path.of(lines[lines.length - 1].trim());
  }

  private static StoreHost launch(S3Store store, Path scripts, List<String> command, Path dir, int port)
      throws IOException {
    List<String> sup = new ArrayList<>(List.of(python(), scripts.resolve("supervise.py").toString(),
        "--pid-file", dir.resolve("server.pid").toString(), "--log", dir.resolve("server.log").toString()));
    if (store == S3Store.S3MOCK) {
      sup.addAll(List.of("--netns-forward", port + ":" + S3MOCK_INNER_PORT));
    }
    sup.add("--");
    sup.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(sup)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("supervise.out").toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    LOG.info("Starting {} on 127.0.0.1:{}, log {}", store.description(), port, dir.resolve("server.log"));
    long t0 = System.nanoTime();
    StoreHost host = new StoreHost(store, pb.start(), dir, port);
    try {
      host.awaitReady();
    } catch (IOException | RuntimeException e) {
      host.close();
      throw e;
    }
    LOG.info("{} ready on 127.0.0.1:{} in {} ms", store.description(), port, (System.nanoTime() - t0) / 1_000_000);
    return host;
  }

  private static String python() {
    return S3TestSettings.fromEnvironment().get(S3TestSettings.STORE_PYTHON).orElse("python3");
  }

  private void awaitReady() throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    URL root = new URL("http://127.0.0.1:" + port + "/");
    String lastProblem = "no answer";
    while (System.nanoTime() < deadline) {
      if (!supervisor.isAlive()) {
        throw new IOException(store.description() + " exited during start-up (code " + supervisor.exitValue()
            + "); log " + log + ":\n" + logTail(40) + "\n" + readQuietly(instanceDir.resolve("supervise.out")));
      }
      try {
        HttpURLConnection c = (HttpURLConnection) root.openConnection();
        c.setConnectTimeout(1000);
        c.setReadTimeout(5000);
        int code = c.getResponseCode(); // any HTTP answer (200, or 403 unsigned) means it serves requests
        c.disconnect();
        if (code > 0) {
          return;
        }
      } catch (IOException notYet) {
        lastProblem = notYet.toString();
      }
      sleep(250);
    }
    throw new IOException(store.description() + " did not become ready on port " + port + " within "
        + START_TIMEOUT + " (" + lastProblem + "); log " + log + ":\n" + logTail(40));
  }

  private static String readQuietly(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p) : "";
    } catch (IOException e) {
      return "(cannot read " + p + ")";
    }
  }

  @Override
  public S3Endpoint endpoint() {
    return endpoint;
  }

  @Override
  public S3Store store() {
    return store;
  }

  public int port() {
    return port;
  }

  /** The supervisor's pid: the process this JVM started. */
  public long supervisorPid() {
    return supervisor.pid();
  }

  /** The server's own pid (leader of its process group), once the supervisor has started it. */
  public Optional<Long> serverPid() {
    Path pidFile = instanceDir.resolve("server.pid");
    try {
      return Files.exists(pidFile) ? Optional.of(Long.parseLong(Files.readString(pidFile).trim())) : Optional.empty();
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public Optional<Path> logFile() {
    return Optional.of(log);
  }

  @Override
  public String logTail(int lines) {
    try {
      return Files.exists(log) ? LocalStackHost.tail(Files.readString(log, StandardCharsets.UTF_8), lines)
          : "(no log yet: " + log + ")";
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  @Override
  public void close() {
    stopProcesses();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // already in the hook
    }
  }

  private synchronized void stopProcesses() {
    Optional<ProcessHandle> server = serverPid().flatMap(ProcessHandle::of);
    if (supervisor.isAlive()) {
      supervisor.destroy(); // SIGTERM: the supervisor stops the server's whole process group
      try {
        if (!supervisor.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          supervisor.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        supervisor.destroyForcibly();
      }
    }
    server.ifPresent(h -> Stream.concat(h.descendants(), Stream.of(h)).filter(ProcessHandle::isAlive)
        .forEach(ProcessHandle::destroyForcibly));
  }

  private static Path extractScripts(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (String name : SCRIPTS) {
      try (InputStream in = StoreHost.class.getResourceAsStream(RESOURCE_DIR + name)) {
        if (in == null) {
          throw new IOException("test-support jar lacks " + RESOURCE_DIR + name);
        }
        Path target = dir.resolve(name);
        Path tmp = dir.resolve(name + ".tmp-" + ProcessHandle.current().pid());
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        tmp.toFile().setExecutable(true);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
    }
    return dir;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  private static int waitFor(Process p, Duration timeout, String what) throws IOException {
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IOException("timed out after " + timeout + " " + what);
      }
      return p.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted while " + what, e);
    }
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the store", e);
    }
  }
}
