package io.objectcommit.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One {@code spark-submit} (client mode) started by {@link SparkStandaloneCluster#submit}: its driver runs under a
 * supervisor of its own, which exits with the job's exit code and leaves nothing of the job behind.
 */
public final class SparkSubmission implements AutoCloseable {

  private final String name;
  private final SupervisedServer job;
  private final Path dir;

  SparkSubmission(String name, SupervisedServer job, Path dir) {
    this.name = name;
    this.job = job;
    this.dir = dir;
  }

  /** The job's directory: {@code driver.log}, {@code driver.pid}. */
  public Path dir() {
    return dir;
  }

  /** The driver's log (spark-submit's stdout and stderr). */
  public Path log() {
    return job.log();
  }

  public String logTail(int lines) {
    return job.logTail(lines);
  }

  public boolean isRunning() {
    return job.isRunning();
  }

  /**
   * Waits for the job to end.
   *
   * @return spark-submit's exit code
   * @throws IOException if it still runs after {@code timeout} (it is then stopped)
   */
  public int await(Duration timeout) throws IOException {
    try {
      Optional<Integer> code = job.awaitExit(timeout);
      if (code.isEmpty()) {
        job.stop();
        throw new IOException("spark-submit " + name + " still ran after " + timeout + "; stopped. Log "
            + log() + ":\n" + logTail(60));
      }
      return code.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      job.stop();
      throw new IOException("interrupted while waiting for spark-submit " + name, e);
    }
  }

  /**
   * Kills the driver JVM with SIGKILL (as the OOM killer or a lost node does), then waits until the supervisor
   * has reaped it and what was left of its process group.
   *
   * @return whether the driver was alive when killed
   */
  public boolean killDriver() throws IOException {
    Optional<ProcessHandle> driver = job.serverPid().flatMap(ProcessHandle::of);
    boolean alive = driver.map(ProcessHandle::isAlive).orElse(false);
    driver.ifPresent(ProcessHandle::destroyForcibly); // SIGKILL
    await(Duration.ofSeconds(30));
    return alive;
  }

  /** Kills any process with SIGKILL and waits until it is gone. */
  public static void kill(long pid) {
    ProcessHandle.of(pid).ifPresent(p -> {
      p.destroyForcibly();
      try {
        p.onExit().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("process " + pid + " did not die after SIGKILL", e);
      }
    });
  }

  @Override
  public void close() {
    job.stop();
  }
}
