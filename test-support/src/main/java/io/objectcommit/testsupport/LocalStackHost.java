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
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LocalStack as a local process ("host mode"), for machines without a Docker engine.
 *
 * <p>{@code tools/localstack/localstack-host provision} prepares a cached virtualenv with the pinned
 * {@code localstack-core}; {@code supervise.py} runs LocalStack on a free port bound to 127.0.0.1 only and
 * stops it when this JVM exits, normally (shutdown hook, {@link #close()}) or not (the supervisor notices that
 * its parent is gone). The log stays in the instance directory under {@code target/}.
 */
public final class LocalStackHost implements RunningEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(LocalStackHost.class);
  private static final String RESOURCE_DIR = "localstack/";
  private static final List<String> SCRIPTS = List.of(
      "localstack-host", "supervise.py", "requirements-py313.lock", "requirements-py311.lock");
  /** Exit code of localstack-host when no suitable Python exists. */
  private static final int EXIT_NO_PYTHON = 3;
  static final Duration PROVISION_TIMEOUT = Duration.ofMinutes(10);
  static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

  private final Process supervisor;
  private final Path instanceDir;
  private final Path log;
  private final int port;
  private final S3Endpoint endpoint;
  private final Thread shutdownHook;

  private LocalStackHost(Process supervisor, Path instanceDir, int port) {
    this.supervisor = supervisor;
    this.instanceDir = instanceDir;
    this.log = instanceDir.resolve("localstack.log");
    this.port = port;
    this.endpoint = new S3Endpoint(S3Endpoint.Kind.HOST, "http://127.0.0.1:" + port, S3TestSettings.DEFAULT_REGION,
        "test", "test", true);
    this.shutdownHook = new Thread(this::stopProcesses, "localstack-host-stop-" + port);
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Thrown when host mode cannot work on this machine at all (no suitable Python). */
  static final class NotAvailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NotAvailableException(String message) {
      super(message);
    }
  }

  /**
   * Provisions (or reuses) the virtualenv, starts LocalStack and waits until S3 answers.
   *
   * @param workDir where instance directories (logs, LocalStack's files) are kept, normally under target/
   * @throws NotAvailableException when no suitable Python exists
   */
  public static LocalStackHost start(Path workDir) throws IOException {
    Files.createDirectories(workDir);
    Path scripts = extractScripts(workDir.resolve("scripts"));
    Path python = provision(scripts, workDir);
    IOException last = null;
    for (int attempt = 1; attempt <= 3; attempt++) { // a free port can be taken between probe and bind
      int port = freePort();
      Path instanceDir = workDir.resolve("host-" + port + "-" + System.currentTimeMillis());
      try {
        return launch(python, scripts, instanceDir, port);
      } catch (IOException e) {
        last = e;
        LOG.warn("LocalStack attempt {} on port {} failed: {}", attempt, port, e.getMessage());
      }
    }
    throw last;
  }

  private static Path extractScripts(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (String name : SCRIPTS) {
      try (InputStream in = LocalStackHost.class.getResourceAsStream(RESOURCE_DIR + name)) {
        if (in == null) {
          throw new IOException("test-support jar lacks " + RESOURCE_DIR + name);
        }
        Path target = dir.resolve(name);
        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        target.toFile().setExecutable(true);
      }
    }
    return dir;
  }

  private static Path provision(Path scripts, Path workDir) throws IOException {
    Path out = workDir.resolve("provision.log");
    ProcessBuilder pb = new ProcessBuilder("bash", scripts.resolve("localstack-host").toString(), "provision")
        .redirectErrorStream(false)
        .redirectError(ProcessBuilder.Redirect.to(out.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    long t0 = System.nanoTime();
    Process p = pb.start();
    String stdout;
    try (InputStream in = p.getInputStream()) {
      stdout = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int code = waitFor(p, PROVISION_TIMEOUT, "provisioning LocalStack (" + out + ")");
    String err = Files.readString(out, StandardCharsets.UTF_8);
    if (code == EXIT_NO_PYTHON && err.contains("none was found")) {
      throw new NotAvailableException(err.trim());
    }
    if (code != 0) {
      throw new IOException("provisioning host-mode LocalStack failed with exit code " + code + ":\n" + tail(err, 40));
    }
    String[] lines = stdout.trim().split("\n");
    Path python = Path.of(lines[lines.length - 1].trim());
    if (!Files.isExecutable(python)) {
      throw new IOException("provisioning did not yield a Python interpreter (got '" + python + "'):\n" + tail(err, 40));
    }
    LOG.info("LocalStack virtualenv ready in {} ms: {}", (System.nanoTime() - t0) / 1_000_000, python);
    return python;
  }

  private static LocalStackHost launch(Path python, Path scripts, Path instanceDir, int port) throws IOException {
    Files.createDirectories(instanceDir.resolve("tmp"));
    Files.createDirectories(instanceDir.resolve("filesystem"));
    Path log = instanceDir.resolve("localstack.log");
    ProcessBuilder pb = new ProcessBuilder(python.toString(), scripts.resolve("supervise.py").toString(),
        "--pid-file", instanceDir.resolve("localstack.pid").toString(), "--log", log.toString())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(instanceDir.resolve("supervise.out").toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    Map<String, String> env = pb.environment();
    env.put("SERVICES", "s3");
    env.put("EAGER_SERVICE_LOADING", "1");
    env.put("GATEWAY_LISTEN", "127.0.0.1:" + port);
    env.put("GATEWAY_SERVER", "hypercorn"); // without it LocalStack binds 0.0.0.0 whatever GATEWAY_LISTEN says
    env.put("DNS_ADDRESS", "0");
    env.put("DISABLE_EVENTS", "1");
    env.put("SKIP_SSL_CERT_DOWNLOAD", "1");
    env.put("LOCALSTACK_TELEMETRY_DISABLED", "1");
    env.put("TMPDIR", instanceDir.resolve("tmp").toString());
    env.put("FILESYSTEM_ROOT", instanceDir.resolve("filesystem").toString());
    LOG.info("Starting LocalStack (host mode) on 127.0.0.1:{}, log {}", port, log);
    long t0 = System.nanoTime();
    Process supervisor = pb.start();
    LocalStackHost host = new LocalStackHost(supervisor, instanceDir, port);
    try {
      host.awaitReady();
    } catch (IOException | RuntimeException e) {
      host.close();
      throw e;
    }
    LOG.info("LocalStack ready on 127.0.0.1:{} in {} ms", port, (System.nanoTime() - t0) / 1_000_000);
    return host;
  }

  private void awaitReady() throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    URL health = new URL("http://127.0.0.1:" + port + "/_localstack/health");
    String lastProblem = "no answer";
    while (System.nanoTime() < deadline) {
      if (!supervisor.isAlive()) {
        throw new IOException("LocalStack exited during start-up (code " + supervisor.exitValue() + "); log "
            + log + ":\n" + logTail(40));
      }
      try {
        HttpURLConnection c = (HttpURLConnection) health.openConnection();
        c.setConnectTimeout(1000);
        c.setReadTimeout(2000);
        int code = c.getResponseCode();
        String body = code == 200 ? new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : "";
        c.disconnect();
        if (body.matches("(?s).*\"s3\"\\s*:\\s*\"(available|running)\".*")) {
          return;
        }
        lastProblem = "health answered " + code + " " + body;
      } catch (IOException notYet) {
        lastProblem = notYet.toString();
      }
      sleep(250);
    }
    throw new IOException("LocalStack did not become ready on port " + port + " within " + START_TIMEOUT
        + " (" + lastProblem + "); log " + log + ":\n" + logTail(40));
  }

  @Override
  public S3Endpoint endpoint() {
    return endpoint;
  }

  public int port() {
    return port;
  }

  public Path instanceDir() {
    return instanceDir;
  }

  /** The supervisor's pid: the process this JVM started. */
  public long supervisorPid() {
    return supervisor.pid();
  }

  /** LocalStack's own pid (leader of its process group), once the supervisor has started it. */
  public Optional<Long> localStackPid() {
    Path pidFile = instanceDir.resolve("localstack.pid");
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
      return Files.exists(log) ? tail(Files.readString(log, StandardCharsets.UTF_8), lines) : "(no log yet: " + log + ")";
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
    Optional<ProcessHandle> localstack = localStackPid().flatMap(ProcessHandle::of);
    if (supervisor.isAlive()) {
      supervisor.destroy(); // SIGTERM: the supervisor stops LocalStack's whole process group
      try {
        if (!supervisor.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          supervisor.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        supervisor.destroyForcibly();
      }
    }
    // Belt and braces: whatever of LocalStack survived its supervisor.
    localstack.ifPresent(h -> {
      Stream.concat(h.descendants(), Stream.of(h)).filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    });
  }

  static String tail(String text, int lines) {
    Deque<String> last = new ArrayDeque<>();
    for (String line : text.split("\n", -1)) {
      last.addLast(line);
      if (last.size() > lines) {
        last.removeFirst();
      }
    }
    return String.join("\n", last);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  private static java.io.File nullDevice() {
    return new java.io.File("/dev/null");
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
      throw new IOException("interrupted while waiting for LocalStack", e);
    }
  }
}
