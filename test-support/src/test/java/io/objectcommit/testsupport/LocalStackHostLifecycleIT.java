package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * After the JVM that started host-mode LocalStack ends, normally or killed with SIGKILL, no LocalStack process is
 * left behind and its port is closed; while it runs it listens on 127.0.0.1 only. Runs wherever the harness would
 * choose host mode.
 */
class LocalStackHostLifecycleIT {

  private static final long CLEANUP_DEADLINE_MS = 30_000;

  @BeforeAll
  static void onlyWhereHostModeIsUsed() {
    S3TestSettings.Mode mode = S3TestSettings.fromEnvironment().mode();
    assumeTrue(mode == S3TestSettings.Mode.HOST
        || (mode == S3TestSettings.Mode.AUTO && !LocalStackDocker.dockerAvailable()),
        "host mode is not what this machine uses (mode " + mode + ")");
  }

  @Test
  void killedJvmLeavesNoLocalStackBehind() throws Exception {
    assertNothingLeftAfter("hang", child -> {
      child.destroyForcibly(); // SIGKILL: no shutdown hook runs
      assertTrue(child.waitFor(10, TimeUnit.SECONDS));
      assertEquals(137, child.exitValue(), "killed by SIGKILL");
    });
  }

  @Test
  void normallyExitingJvmLeavesNoLocalStackBehind() throws Exception {
    assertNothingLeftAfter("exit", child -> {
      child.getOutputStream().write('\n');
      child.getOutputStream().flush();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM exits by itself");
      assertEquals(0, child.exitValue());
    });
  }

  interface Ending {
    void end(Process child) throws Exception;
  }

  private void assertNothingLeftAfter(String then, Ending ending) throws Exception {
    Path dir = S3Endpoints.workDir().resolve("lifecycle-" + then + "-" + System.nanoTime());
    Files.createDirectories(dir);
    Path info = dir.resolve("probe.info");
    Path out = dir.resolve("probe.out");
    Process child = new ProcessBuilder(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        LocalStackHostProbe.class.getName(), dir.toString(), info.toString(), then))
        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    try {
      long deadline = System.currentTimeMillis() + LocalStackHost.PROVISION_TIMEOUT.toMillis();
      while (!Files.exists(info)) {
        if (!child.isAlive() && !Files.exists(info)) {
          fail("probe JVM ended before LocalStack was up; its output:\n" + Files.readString(out));
        }
        if (System.currentTimeMillis() > deadline) {
          fail("LocalStack did not start in time; probe output:\n" + Files.readString(out));
        }
        Thread.sleep(200);
      }
      String[] f = Files.readString(info).trim().split(" ");
      int port = Integer.parseInt(f[0]);
      long supervisor = Long.parseLong(f[1]);
      long localstack = Long.parseLong(f[2]);
      assertTrue(alive(localstack), "LocalStack runs while its JVM does");
      assertTrue(portOpen(port), "LocalStack answers on 127.0.0.1:" + port);
      assertEquals(List.of(), LoopbackListeners.beyondLoopback(localstack), "LocalStack listens beyond loopback");

      ending.end(child);

      long until = System.currentTimeMillis() + CLEANUP_DEADLINE_MS;
      while ((alive(supervisor) || alive(localstack) || portOpen(port)) && System.currentTimeMillis() < until) {
        Thread.sleep(200);
      }
      String state = "supervisor " + supervisor + " alive=" + alive(supervisor) + ", LocalStack " + localstack
          + " alive=" + alive(localstack) + ", port " + port + " open=" + portOpen(port);
      assertTrue(!alive(supervisor) && !alive(localstack) && !portOpen(port),
          "something of LocalStack survived its JVM within " + CLEANUP_DEADLINE_MS + " ms: " + state);
    } finally {
      child.destroyForcibly();
    }
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static boolean portOpen(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
