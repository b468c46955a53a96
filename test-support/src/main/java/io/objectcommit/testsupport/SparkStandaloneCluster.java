package io.objectcommit.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Spark standalone cluster on loopback: a master and two workers ({@code 127.0.0.1} and {@code localhost}, so
 * that speculation can place a copy of a task on the other "host"), one core each, each executor in a JVM of its
 * own started by its worker. The Spark is the one inside pyspark from PyPI, installed once into a cached
 * virtualenv by {@code tools/pyspark/pyspark-env} (shared with {@code examples/run-pyspark-example}).
 *
 * <p>Master and workers run under {@code tools/supervise.py} (through {@link SupervisedServer}): they, and the
 * executors they start (same process group), die with this JVM even when it is killed. Jobs are submitted as users
 * submit them, with {@code spark-submit} in client mode ({@link #submit}), each under a supervisor of its own
 * ({@code --job}). Everything the cluster writes (logs, work directories, executors' scratch space) stays in the
 * instance directory.
 */
public final class SparkStandaloneCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SparkStandaloneCluster.class);
  private static final List<String> SCRIPTS = List.of("pyspark-env");
  static final Duration PROVISION_TIMEOUT = Duration.ofMinutes(15);
  static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  /** Worker host names: two names of the loopback interface, which Spark takes for two hosts. */
  public static final List<String> WORKER_HOSTS = List.of("127.0.0.1", "localhost");
  private static final Pattern ALIVE_WORKERS = Pattern.compile("\"aliveworkers\"\\s*:\\s*(\\d+)");

  private final Path dir;
  private final Path python;
  private final Path sparkHome;
  private final Path scripts;
  private final int masterPort;
  private final List<SupervisedServer> daemons;

  private SparkStandaloneCluster(Path dir, Path python, Path sparkHome, Path scripts, int masterPort,
      List<SupervisedServer> daemons) {
    this.dir = dir;
    this.python = python;
    this.sparkHome = sparkHome;
    this.scripts = scripts;
    this.masterPort = masterPort;
    this.daemons = daemons;
  }

  /**
   * Provisions PySpark (once per machine), starts the master and two workers and waits until both workers are
   * registered.
   *
   * @param workDir where the instance directory is created, normally under target/
   */
  public static SparkStandaloneCluster start(Path workDir) throws IOException {
    long t0 = System.nanoTime();
    Files.createDirectories(workDir);
    Path scripts = SupervisedServer.extractScripts(workDir.resolve("cluster-scripts"), "pyspark/", SCRIPTS);
    Path dir = Files.createDirectories(workDir.resolve("cluster-" + System.currentTimeMillis()));
    Path python = provision(scripts, dir);
    Path sparkHome = python.getParent().getParent().resolve("lib")
        .resolve("python" + pythonVersion(python)).resolve("site-packages").resolve("pyspark");
    if (!Files.isRegularFile(sparkHome.resolve("bin").resolve("spark-class"))) {
      throw new IOException("no Spark launcher scripts under " + sparkHome);
    }
    List<SupervisedServer> daemons = new ArrayList<>();
    try {
      int masterPort = SupervisedServer.freePort();
      int masterUi = SupervisedServer.freePort();
      Path masterDir = Files.createDirectories(dir.resolve("master"));
      SupervisedServer master = SupervisedServer.start("Spark master", masterPort, python.toString(), scripts,
          masterDir, "master.log", "master.pid", List.of(),
          List.of(sparkHome.resolve("bin/spark-class").toString(), "org.apache.spark.deploy.master.Master",
              "--host", "127.0.0.1", "--port", Integer.toString(masterPort), "--webui-port", Integer.toString(masterUi)),
          daemonEnv(sparkHome, dir, masterDir), "spark-master-stop-" + masterPort);
      daemons.add(master);
      URL json = new URL("http://127.0.0.1:" + masterUi + "/json/");
      master.awaitReady(json, 5000, START_TIMEOUT, c -> c.getResponseCode() == 200 ? Optional.empty()
          : Optional.of("HTTP " + c.getResponseCode()));
      for (int i = 0; i < WORKER_HOSTS.size(); i++) {
        String host = WORKER_HOSTS.get(i);
        Path workerDir = Files.createDirectories(dir.resolve("worker-" + i));
        int port = SupervisedServer.freePort();
        daemons.add(SupervisedServer.start("Spark worker " + host, port, python.toString(), scripts, workerDir,
            "worker.log", "worker.pid", List.of(),
            List.of(sparkHome.resolve("bin/spark-class").toString(), "org.apache.spark.deploy.worker.Worker",
                "spark://127.0.0.1:" + masterPort, "--host", host, "--port", Integer.toString(port),
                "--webui-port", Integer.toString(SupervisedServer.freePort()), "--cores", "1", "--memory", "1g",
                "--work-dir", Files.createDirectories(workerDir.resolve("work")).toString()),
            daemonEnv(sparkHome, dir, workerDir), "spark-worker-stop-" + port));
      }
      master.awaitReady(json, 5000, START_TIMEOUT, c -> {
        String body = body(c);
        Matcher m = ALIVE_WORKERS.matcher(body);
        return m.find() && Integer.parseInt(m.group(1)) == WORKER_HOSTS.size() ? Optional.empty()
            : Optional.of("workers not registered yet");
      });
      SparkStandaloneCluster cluster = new SparkStandaloneCluster(dir, python, sparkHome, scripts, masterPort, daemons);
      LOG.info("Spark standalone cluster {} (workers {}) ready in {} ms, files in {}", cluster.masterUrl(),
          WORKER_HOSTS, (System.nanoTime() - t0) / 1_000_000, dir);
      return cluster;
    } catch (IOException | RuntimeException e) {
      daemons.forEach(SupervisedServer::stop);
      throw e;
    }
  }

  private static Map<String, String> daemonEnv(Path sparkHome, Path clusterDir, Path own) throws IOException {
    Map<String, String> env = new LinkedHashMap<>(baseEnv(sparkHome, clusterDir));
    env.put("SPARK_DAEMON_MEMORY", "256m");
    env.put("SPARK_LOG_DIR", own.toString());
    env.put("SPARK_LOCAL_DIRS", Files.createDirectories(own.resolve("local")).toString());
    // marks the daemons as this cluster's (leftover check) and keeps them small
    env.put("SPARK_DAEMON_JAVA_OPTS", "-Dobjectcommit.cluster=" + clusterDir + " " + TestJvmFlags.joined());
    return env;
  }

  private static Map<String, String> baseEnv(Path sparkHome, Path clusterDir) throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("SPARK_HOME", sparkHome.toString());
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    // no site configuration: what a fresh installation has
    env.put("SPARK_CONF_DIR", Files.createDirectories(clusterDir.resolve("conf")).toString());
    env.put("PYSPARK_PYTHON", sparkPython(sparkHome).toString());
    env.put("PYSPARK_DRIVER_PYTHON", sparkPython(sparkHome).toString());
    return env;
  }

  private static Path sparkPython(Path sparkHome) {
    // <venv>/lib/pythonX.Y/site-packages/pyspark -> <venv>/bin/python
    return sparkHome.getParent().getParent().getParent().getParent().resolve("bin").resolve("python");
  }

  private static String body(HttpURLConnection c) throws IOException {
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Path provision(Path scripts, Path dir) throws IOException {
    SupervisedServer.ScriptResult r = SupervisedServer.runScript(
        List.of("bash", scripts.resolve("pyspark-env").toString(), "provision"), dir.resolve("provision.log"),
        PROVISION_TIMEOUT, "provisioning PySpark");
    if (r.exitCode() != 0) {
      throw new IOException("provisioning PySpark failed (exit " + r.exitCode() + "):\n"
          + SupervisedServer.tail(r.stderr(), 30));
    }
    return r.lastLinePath();
  }

  private static String pythonVersion(Path python) throws IOException {
    SupervisedServer.ScriptResult r = SupervisedServer.runScript(List.of(python.toString(), "-c",
        "import sys; print('%d.%d' % sys.version_info[:2])"), Files.createTempFile("pyver", ".err"),
        Duration.ofSeconds(30), "asking " + python + " its version");
    return r.stdout().trim();
  }

  /** {@code spark://127.0.0.1:port}. */
  public String masterUrl() {
    return "spark://127.0.0.1:" + masterPort;
  }

  /** The Spark installation (pyspark's package directory: {@code bin/spark-submit}, {@code jars/}). */
  public Path sparkHome() {
    return sparkHome;
  }

  /** The virtualenv's Python (for jobs and checks written in Python). */
  public Path python() {
    return python;
  }

  /** The instance directory: logs, work directories. */
  public Path dir() {
    return dir;
  }

  /** The log of worker {@code i} (its executors' logs are under its work directory). */
  public Path workerDir(int i) {
    return dir.resolve("worker-" + i);
  }

  /**
   * Starts {@code spark-submit} in client mode against this cluster, as a user runs it, under a supervisor of its
   * own. The cluster adds only what loopback needs: the master, {@code spark.driver.host}/{@code bindAddress}
   * 127.0.0.1, no UI, the executors' memory.
   *
   * @param name names the job's directory (log: {@code <name>/driver.log})
   * @param options spark-submit options ({@code --jars}, {@code --conf k=v}, ...)
   * @param app the application (a Python file or a jar)
   * @param appArgs the application's arguments
   */
  public SparkSubmission submit(String name, List<String> options, Path app, List<String> appArgs)
      throws IOException {
    Path jobDir = Files.createDirectories(dir.resolve("jobs").resolve(name + "-" + System.currentTimeMillis()));
    List<String> command = new ArrayList<>(List.of(sparkHome.resolve("bin/spark-submit").toString(),
        "--master", masterUrl(), "--deploy-mode", "client",
        "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.ui.enabled=false", "--conf", "spark.executor.memory=640m",
        "--conf", "spark.driver.memory=768m",
        "--conf", "spark.driver.extraJavaOptions=-Dobjectcommit.cluster=" + dir + " " + TestJvmFlags.joined(),
        "--conf", "spark.executor.extraJavaOptions=-Dobjectcommit.cluster=" + dir + " " + TestJvmFlags.joined()));
    command.addAll(options);
    command.add(app.toString());
    command.addAll(appArgs);
    Map<String, String> env = new LinkedHashMap<>(baseEnv(sparkHome, dir));
    env.put("SPARK_LOCAL_DIRS", Files.createDirectories(jobDir.resolve("local")).toString());
    LOG.info("spark-submit {} ({}), log {}", name, app.getFileName(), jobDir.resolve("driver.log"));
    SupervisedServer job = SupervisedServer.start("spark-submit " + name, masterPort, python.toString(), scripts,
        jobDir, "driver.log", "driver.pid", List.of("--job"), command, env, "spark-submit-stop-" + name);
    return new SparkSubmission(name, job, jobDir);
  }

  /**
   * The processes of this cluster still alive: master, workers, executors and drivers carry the instance
   * directory in their command line (after {@link #close()}: must be none).
   */
  public List<ProcessHandle> liveProcesses() {
    String marker = "-Dobjectcommit.cluster=" + dir;
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != ProcessHandle.current().pid())
        .filter(p -> commandLine(p).contains(marker))
        .collect(Collectors.toList());
  }

  /** The command line of a process (from /proc, which holds it whole), or empty. */
  public static String commandLine(ProcessHandle p) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
      return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ');
    } catch (IOException | RuntimeException gone) {
      return p.info().commandLine().orElse("");
    }
  }

  /** Stops the workers (and so their executors) and the master; kills whatever of the cluster survived. */
  @Override
  public void close() {
    long t0 = System.nanoTime();
    for (int i = daemons.size() - 1; i >= 0; i--) {
      daemons.get(i).stop();
    }
    liveProcesses().forEach(p -> {
      LOG.warn("Spark process {} outlived its supervisor; killing it: {}", p.pid(), commandLine(p));
      p.destroyForcibly();
    });
    LOG.info("Spark standalone cluster {} stopped in {} ms", masterUrl(), (System.nanoTime() - t0) / 1_000_000);
  }
}
