package io.objectcommit.testsupport;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LocalStack as a local process ("host mode"), for machines without a Docker engine.
 *
 * <p>{@code tools/localstack/localstack-host provision} prepares a cached virtualenv with the pinned
 * {@code localstack-core}; {@code tools/supervise.py} runs LocalStack on a free port bound to 127.0.0.1 only and
 * stops it when this JVM exits, normally (shutdown hook, {@link #close()}) or not (the supervisor notices that
 * its parent is gone). The log stays in the instance directory under {@code target/}. The process machinery is
 * {@link SupervisedServer}'s, shared with {@link StoreHost}.
 */
public final class LocalStackHost extends SupervisedHost {

  /**
   * LocalStack (2026.3.0) treats a request's {@code Referer} as a browser's origin where it enforces CORS itself,
   * which it does for a bucket that does not exist: the request is refused with 403 ("Blocked CORS request from
   * forbidden origin" in its log) where Amazon S3 answers 404 (CORS is for browsers to enforce). The attribution
   * headers of objectcommit and of S3A's auditing are URLs on {@code audit.example.org}, allowed here so that a
   * missing bucket is reported as missing (docs/user-guide.md, Troubleshooting).
   */
  static final String CORS_ORIGINS_KEY = "EXTRA_CORS_ALLOWED_ORIGINS";
  static final String CORS_ORIGINS = "https://audit.example.org";

  private static final Logger LOG = LoggerFactory.getLogger(LocalStackHost.class);
  private static final String RESOURCE_DIR = "localstack/";
  private static final List<String> SCRIPTS = List.of(
      "localstack-host", "localstack-loopback.py", "requirements-py313.lock", "requirements-py311.lock");
  /** Exit code of localstack-host when no suitable Python exists. */
  private static final int EXIT_NO_PYTHON = 3;
  static final Duration PROVISION_TIMEOUT = Duration.ofMinutes(10);
  static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final Path instanceDir;

  private LocalStackHost(SupervisedServer server, Path instanceDir) {
    super(server, S3Endpoint.Kind.HOST, "test", "test");
    this.instanceDir = instanceDir;
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
    return start(workDir, null);
  }

  /**
   * As {@link #start(Path)}, for a LocalStack that outlives this JVM: its supervisor stops it when process
   * {@code watchPid} ends instead (the build's Maven JVM: {@link BuildEndpoint}), and this JVM registers no
   * shutdown hook for it.
   */
  static LocalStackHost start(Path workDir, Long watchPid) throws IOException {
    Files.createDirectories(workDir);
    Path scripts = SupervisedServer.extractScripts(workDir.resolve("scripts"), RESOURCE_DIR, SCRIPTS);
    Path python = provision(scripts, workDir);
    IOException last = null;
    for (int attempt = 1; attempt <= 3; attempt++) { // a free port can be taken between probe and bind
      int port = SupervisedServer.freePort();
      Path instanceDir = workDir.resolve("host-" + port + "-" + System.currentTimeMillis());
      try {
        return launch(python, scripts, instanceDir, port, watchPid);
      } catch (IOException e) {
        last = e;
        LOG.warn("LocalStack attempt {} on port {} failed: {}", attempt, port, e.getMessage());
      }
    }
    throw last;
  }

  private static Path provision(Path scripts, Path workDir) throws IOException {
    long t0 = System.nanoTime();
    Path out = workDir.resolve("provision.log");
    SupervisedServer.ScriptResult r = SupervisedServer.runScript(
        List.of("bash", scripts.resolve("localstack-host").toString(), "provision"), out, PROVISION_TIMEOUT,
        "provisioning LocalStack (" + out + ")");
    if (r.exitCode() == EXIT_NO_PYTHON && r.stderr().contains("none was found")) {
      throw new NotAvailableException(r.stderr().trim());
    }
    if (r.exitCode() != 0) {
      throw new IOException("provisioning host-mode LocalStack failed with exit code " + r.exitCode() + ":\n"
          + SupervisedServer.tail(r.stderr(), 40));
    }
    Path python = r.lastLinePath();
    if (!Files.isExecutable(python)) {
      throw new IOException("provisioning did not yield a Python interpreter (got '" + python + "'):\n"
          + SupervisedServer.tail(r.stderr(), 40));
    }
    LOG.info("LocalStack virtualenv ready in {} ms: {}", (System.nanoTime() - t0) / 1_000_000, python);
    return python;
  }

  private static LocalStackHost launch(Path python, Path scripts, Path instanceDir, int port, Long watchPid)
      throws IOException {
    Files.createDirectories(instanceDir.resolve("tmp"));
    Files.createDirectories(instanceDir.resolve("filesystem"));
    Map<String, String> env = Map.ofEntries(Map.entry("SERVICES", "s3"),
        Map.entry("EAGER_SERVICE_LOADING", "1"),
        Map.entry("GATEWAY_LISTEN", "127.0.0.1:" + port),
        // LocalStack's default gateway, cheaper per request than Hypercorn (docs/development.md, "Where CI's time
        // goes"); localstack-loopback.py binds it to GATEWAY_LISTEN's host, where LocalStack's binds 0.0.0.0
        Map.entry("GATEWAY_SERVER", "twisted"),
        Map.entry("DNS_ADDRESS", "0"),
        Map.entry("DISABLE_EVENTS", "1"),
        Map.entry("SKIP_SSL_CERT_DOWNLOAD", "1"),
        Map.entry("LOCALSTACK_TELEMETRY_DISABLED", "1"),
        Map.entry(CORS_ORIGINS_KEY, CORS_ORIGINS),
        Map.entry("TMPDIR", instanceDir.resolve("tmp").toString()),
        Map.entry("FILESYSTEM_ROOT", instanceDir.resolve("filesystem").toString()));
    LOG.info("Starting LocalStack (host mode) on 127.0.0.1:{}, log {}", port, instanceDir.resolve("localstack.log"));
    long t0 = System.nanoTime();
    SupervisedServer server = SupervisedServer.start("LocalStack", port, python.toString(), scripts, instanceDir,
        "localstack.log", "localstack.pid", watchPid == null ? List.of() : List.of("--watch-pid", watchPid.toString()),
        List.of(python.toString(), scripts.resolve("localstack-loopback.py").toString()), env,
        watchPid == null ? "localstack-host-stop-" + port : null);
    server.awaitReady(new URL("http://127.0.0.1:" + port + "/_localstack/health"), 2000, START_TIMEOUT, c -> {
      int code = c.getResponseCode();
      String body = code == 200 ? new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : "";
      return body.matches("(?s).*\"s3\"\\s*:\\s*\"(available|running)\".*") ? Optional.empty()
          : Optional.of("health answered " + code + " " + body);
    });
    LOG.info("LocalStack ready on 127.0.0.1:{} in {} ms", port, (System.nanoTime() - t0) / 1_000_000);
    return new LocalStackHost(server, instanceDir);
  }

  public Path instanceDir() {
    return instanceDir;
  }

  /** LocalStack's own pid (leader of its process group), once the supervisor has started it. */
  public Optional<Long> localStackPid() {
    return server.serverPid();
  }
}
