package io.objectcommit.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One host-mode LocalStack for a whole Maven build instead of one per test JVM: the build sets
 * {@value #DIR_PROPERTY} for every test JVM (the root pom: {@code <root>/target/s3-endpoint}); the first JVM that
 * needs an endpoint starts LocalStack there, whose supervisor stops it when the build's Maven JVM (the test JVM's
 * parent) ends, and records it in {@code endpoint-<maven pid>.properties}; every later test JVM of the same build
 * finds it there and uses it. A file lock makes test JVMs that start at once (parallel modules) wait for one
 * another. Tests share nothing else: each gets its own buckets. Without the property (an IDE, a plain
 * {@code java} run) each JVM starts its own LocalStack as before, stopped with that JVM.
 */
final class BuildEndpoint implements RunningEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(BuildEndpoint.class);
  /** The directory of the build's endpoint; set by the build for its test JVMs. */
  static final String DIR_PROPERTY = "objectcommit.s3.build-endpoint.dir";

  private final S3Endpoint endpoint;
  private final Path log;

  private BuildEndpoint(int port, Path log) {
    this.endpoint = new S3Endpoint(S3Endpoint.Kind.HOST, "http://127.0.0.1:" + port, S3TestSettings.DEFAULT_REGION,
        "test", "test", true);
    this.log = log;
  }

  /** The directory named by {@value #DIR_PROPERTY}, if set. */
  static Optional<Path> configuredDir() {
    String dir = System.getProperty(DIR_PROPERTY, "");
    return dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir).toAbsolutePath());
  }

  /**
   * The build's LocalStack: the one recorded in {@code dir} for this build's Maven JVM if it still answers, else
   * a new one started now and recorded there.
   */
  static RunningEndpoint acquire(Path dir) throws IOException {
    Files.createDirectories(dir);
    Optional<ProcessHandle> build = buildProcess();
    if (build.isEmpty()) {
      LOG.info("No build JVM among this JVM's ancestors to share LocalStack with: starting one for this JVM");
      return LocalStackHost.start(dir);
    }
    long buildPid = build.get().pid();
    Path record = dir.resolve("endpoint-" + buildPid + ".properties");
    try (FileChannel channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
      Optional<BuildEndpoint> running = read(record).filter(BuildEndpoint::answers);
      if (running.isPresent()) {
        LOG.info("Using the build's LocalStack {} (started by an earlier test JVM of Maven pid {})",
            running.get().endpoint.uri(), buildPid);
        return running.get();
      }
      LocalStackHost host = LocalStackHost.start(dir, buildPid);
      write(record, host.port(), host.logFile().orElseThrow());
      LOG.info("Started the build's LocalStack on port {}: it serves every test JVM of Maven pid {} and stops"
          + " with it", host.port(), buildPid);
      return new BuildEndpoint(host.port(), host.logFile().orElseThrow());
    }
  }

  /**
   * The build's JVM: the nearest ancestor that runs {@code java} (Surefire and Failsafe start a test JVM from Maven's
   * JVM, sometimes through a shell, {@code /bin/sh -c cd <module> && java ...}).
   */
  private static Optional<ProcessHandle> buildProcess() {
    Optional<ProcessHandle> p = ProcessHandle.current().parent();
    for (int depth = 0; p.isPresent() && depth < 4; depth++, p = p.get().parent()) {
      Optional<String> command = p.get().info().command();
      if (command.isPresent() && Path.of(command.get()).getFileName().toString().equals("java")) {
        return p;
      }
    }
    return Optional.empty();
  }

  private static Optional<BuildEndpoint> read(Path record) throws IOException {
    if (!Files.exists(record)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(record)) {
      p.load(in);
    }
    return Optional.of(new BuildEndpoint(Integer.parseInt(p.getProperty("port")), Path.of(p.getProperty("log"))));
  }

  private static void write(Path record, int port, Path log) throws IOException {
    Properties p = new Properties();
    p.setProperty("port", Integer.toString(port));
    p.setProperty("log", log.toString());
    Path tmp = record.resolveSibling(record.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(tmp)) {
      p.store(out, "the build's LocalStack (test-support BuildEndpoint)");
    }
    Files.move(tmp, record, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Whether LocalStack answers its health check with S3 available. */
  private boolean answers() {
    try {
      HttpURLConnection c = (HttpURLConnection) new URL(endpoint.uri() + "/_localstack/health").openConnection();
      c.setConnectTimeout(1000);
      c.setReadTimeout(5000);
      try {
        return c.getResponseCode() == 200 && new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
            .matches("(?s).*\"s3\"\\s*:\\s*\"(available|running)\".*");
      } finally {
        c.disconnect();
      }
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public S3Endpoint endpoint() {
    return endpoint;
  }

  @Override
  public Optional<Path> logFile() {
    return Optional.of(log);
  }

  @Override
  public String logTail(int lines) {
    try {
      return Files.exists(log) ? SupervisedServer.tail(Files.readString(log, StandardCharsets.UTF_8), lines)
          : "(no log: " + log + ")";
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  /** Nothing to stop: the build's LocalStack stops with the build. */
  @Override
  public void close() {
  }
}
