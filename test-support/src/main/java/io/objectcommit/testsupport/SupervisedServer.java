package io.objectcommit.testsupport;

import java.io.File;
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
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A server process this JVM starts under {@code tools/supervise.py}, waits for, tails and stops: the machinery
 * shared by {@link LocalStackHost} and {@link StoreHost}, which keep only what is specific to their servers (how
 * to provision them, the command line and environment, the readiness check).
 *
 * <p>The supervisor runs the server in a process group of its own and stops that group when this JVM exits,
 * normally (shutdown hook, {@link #stop()}) or not (the supervisor notices that its parent is gone). The server's
 * log ({@code --log}) and pid file ({@code --pid-file}) stay in the instance directory under {@code target/}.
 */
final class SupervisedServer {

  static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final String SUPERVISOR = "supervise.py";

  /** Decides from one HTTP answer whether the server is ready. */
  interface Readiness {
    /** @return empty when ready, else what is not ready yet (reported if the start times out) */
    Optional<String> problem(HttpURLConnection answer) throws IOException;
  }

  /** The instance's files: the server's log and pid file, the supervisor's own output. */
  private record InstanceFiles(Path log, Path pidFile, Path supervisorOut) {
  }

  private final String name;
  private final Process supervisor;
  private final InstanceFiles files;
  private final int port;
  private final Thread shutdownHook = new Thread(this::stopProcesses);

  private SupervisedServer(String name, Process supervisor, InstanceFiles files, int port, String hookName) {
    this.name = name;
    this.supervisor = supervisor;
    this.files = files;
    this.port = port;
    if (hookName != null) {
      shutdownHook.setName(hookName);
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    }
  }

  /**
   * Starts {@code command} under the supervisor (extracted into {@code scripts} by {@link #extractScripts}).
   *
   * @param name the server's name in messages
   * @param port the 127.0.0.1 port the server (or the supervisor's forwarder) listens on
   * @param python the interpreter that runs the supervisor
   * @param supervisorArgs further supervisor options (such as {@code --netns-forward}), before the command
   * @param env added to the supervisor's (and so the server's) environment
   * @param hookName the name of the shutdown hook's thread; null for a server that outlives this JVM (its
   *     supervisor then watches another process, {@code --watch-pid} in {@code supervisorArgs})
   */
  static SupervisedServer start(String name, int port, String python, Path scripts, Path instanceDir, String logName,
      String pidName, List<String> supervisorArgs, List<String> command, Map<String, String> env, String hookName)
      throws IOException {
    InstanceFiles files = new InstanceFiles(instanceDir.resolve(logName), instanceDir.resolve(pidName),
        instanceDir.resolve("supervise.out"));
    List<String> sup = new ArrayList<>(List.of(python, scripts.resolve(SUPERVISOR).toString(),
        "--pid-file", files.pidFile().toString(), "--log", files.log().toString()));
    sup.addAll(supervisorArgs);
    sup.add("--");
    sup.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(sup)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(files.supervisorOut().toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    pb.environment().putAll(env);
    return new SupervisedServer(name, pb.start(), files, port, hookName);
  }

  /**
   * Polls {@code url} until {@code readiness} accepts an answer; stops the server and throws when it exits or
   * does not become ready within {@code timeout}.
   */
  void awaitReady(URL url, int readTimeoutMillis, Duration timeout, Readiness readiness)
      throws IOException {
    try {
      long deadline = System.nanoTime() + timeout.toNanos();
      String lastProblem = "no answer";
      while (System.nanoTime() < deadline) {
        if (!supervisor.isAlive()) {
          throw new IOException(name + " exited during start-up (code " + supervisor.exitValue() + "); log "
              + files.log() + ":\n" + logTail(40) + "\n" + readQuietly(files.supervisorOut()));
        }
        try {
          HttpURLConnection c = (HttpURLConnection) url.openConnection();
          c.setConnectTimeout(1000);
          c.setReadTimeout(readTimeoutMillis);
          Optional<String> problem = readiness.problem(c);
          c.disconnect();
          if (problem.isEmpty()) {
            return;
          }
          lastProblem = problem.get();
        } catch (IOException notYet) {
          lastProblem = notYet.toString();
        }
        sleep(250);
      }
      throw new IOException(name + " did not become ready on port " + port + " within " + timeout + " ("
          + lastProblem + "); log " + files.log() + ":\n" + logTail(40));
    } catch (IOException | RuntimeException e) {
      stop();
      throw e;
    }
  }

  int port() {
    return port;
  }

  /** Whether the supervisor still runs (it exits when the server exits). */
  boolean alive() {
    return supervisor.isAlive();
  }

  /** The supervisor's pid: the process this JVM started. */
  long supervisorPid() {
    return supervisor.pid();
  }

  /** The server's own pid (leader of its process group), once the supervisor has started it. */
  Optional<Long> serverPid() {
    Path pidFile = files.pidFile();
    try {
      return Files.exists(pidFile) ? Optional.of(Long.parseLong(Files.readString(pidFile).trim())) : Optional.empty();
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  Path log() {
    return files.log();
  }

  /** Whether the supervisor still runs (for a job under {@code --job}: whether the job has not ended). */
  boolean isRunning() {
    return supervisor.isAlive();
  }

  /**
   * Waits for the supervisor to exit: under {@code --job} its exit code is the job's own.
   *
   * @return the exit code, or empty if it still runs after {@code timeout}
   */
  Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
    return supervisor.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
        ? Optional.of(supervisor.exitValue()) : Optional.empty();
  }

  String logTail(int lines) {
    Path log = files.log();
    try {
      return Files.exists(log) ? tail(Files.readString(log, StandardCharsets.UTF_8), lines) : "(no log yet: " + log + ")";
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  /** Stops the supervisor (which stops the server's process group) and whatever of the server survived it. */
  void stop() {
    stopProcesses();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException | IllegalArgumentException notRegistered) {
      // already in the hook, or a server that outlives this JVM
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
    // Belt and braces: whatever of the server survived its supervisor.
    server.ifPresent(h -> Stream.concat(h.descendants(), Stream.of(h)).filter(ProcessHandle::isAlive)
        .forEach(ProcessHandle::destroyForcibly));
  }

  /**
   * Copies the supervisor and the named resources of {@code resourceDir} (relative to this package) into
   * {@code dir}, executable, each replaced atomically (another JVM may be extracting at the same time).
   */
  static Path extractScripts(Path dir, String resourceDir, List<String> names) throws IOException {
    Files.createDirectories(dir);
    List<String> resources = new ArrayList<>(List.of(SUPERVISOR));
    names.forEach(n -> resources.add(resourceDir + n));
    for (String resource : resources) {
      try (InputStream in = SupervisedServer.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IOException("test-support jar lacks " + resource);
        }
        String name = Path.of(resource).getFileName().toString();
        Path target = dir.resolve(name);
        Path tmp = dir.resolve(name + ".tmp-" + ProcessHandle.current().pid());
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        tmp.toFile().setExecutable(true);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
    }
    return dir;
  }

  /** What a provisioning script printed and returned. */
  record ScriptResult(int exitCode, String stdout, String stderr) {
    /** The last line of stdout (the scripts print the path they prepared there). */
    Path lastLinePath() {
      String[] lines = stdout.trim().split("\n");
      return Path.of(lines[lines.length - 1].trim());
    }
  }

  /** Runs a provisioning script, its stderr kept in {@code stderrFile}. */
  static ScriptResult runScript(List<String> command, Path stderrFile, Duration timeout, String what)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.to(stderrFile.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    Process p = pb.start();
    String stdout;
    try (InputStream in = p.getInputStream()) {
      stdout = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int code = waitFor(p, timeout, what);
    return new ScriptResult(code, stdout, Files.readString(stderrFile, StandardCharsets.UTF_8));
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

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  private static String readQuietly(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p) : "";
    } catch (IOException e) {
      return "(cannot read " + p + ")";
    }
  }

  private static File nullDevice() {
    return new File("/dev/null");
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

  private void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for " + name, e);
    }
  }
}
