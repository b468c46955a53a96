package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tools/supervise.py --job}, as {@link SparkStandaloneCluster#submit} runs spark-submit: the job's own exit
 * code comes back, and nothing of its process group outlives it (a killed driver's Python child). No network.
 */
class SupervisedJobTest {

  @TempDir
  Path dir;

  private SupervisedServer job(String script) throws Exception {
    Path scripts = SupervisedServer.extractScripts(dir.resolve("scripts"), "pyspark/", List.of());
    return SupervisedServer.start("job", 1, "python3", scripts, dir, "job.log", "job.pid", List.of("--job"),
        List.of("sh", "-c", script), Map.of(), "job-test-stop");
  }

  @Test
  void exitCodeIsTheJobs() throws Exception {
    SupervisedServer ok = job("exit 0");
    assertEquals(Optional.of(0), ok.awaitExit(Duration.ofSeconds(30)));
    ok.stop();
    SupervisedServer failed = job("exit 7");
    assertEquals(Optional.of(7), failed.awaitExit(Duration.ofSeconds(30)));
    failed.stop();
  }

  @Test
  void whatTheJobLeftInItsGroupIsKilled() throws Exception {
    Path childPid = dir.resolve("child.pid");
    SupervisedServer s = job("sleep 300 & echo $! > " + childPid + "; exit 0");
    assertEquals(Optional.of(0), s.awaitExit(Duration.ofSeconds(30)));
    long pid = Long.parseLong(Files.readString(childPid).trim());
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "background child " + pid);
    s.stop();
  }

  @Test
  void aKilledJobReportsTheSignal() throws Exception {
    SupervisedServer s = job("exec sleep 300");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (s.serverPid().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    ProcessHandle.of(s.serverPid().orElseThrow()).orElseThrow().destroyForcibly();
    assertEquals(Optional.of(128 + 9), s.awaitExit(Duration.ofSeconds(30)));
    s.stop();
  }
}
