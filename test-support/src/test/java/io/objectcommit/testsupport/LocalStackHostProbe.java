package io.objectcommit.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Run in a child JVM by {@link LocalStackHostLifecycleIT}: starts host-mode LocalStack, writes
 * {@code port supervisorPid localstackPid} to a file, then either exits normally (when a line arrives on stdin) or waits to be killed.
 */
public final class LocalStackHostProbe {

  private LocalStackHostProbe() {
  }

  public static void main(String[] args) throws Exception {
    Path workDir = Path.of(args[0]);
    Path info = Path.of(args[1]);
    String then = args[2];
    LocalStackHost host = LocalStackHost.start(workDir);
    String line = host.port() + " " + host.supervisorPid() + " " + host.localStackPid().orElseThrow() + "\n";
    Path tmp = Path.of(info + ".tmp");
    Files.writeString(tmp, line);
    Files.move(tmp, info, StandardCopyOption.ATOMIC_MOVE);
    if ("exit".equals(then)) {
      System.in.read(); // the test says when, once it has seen LocalStack running
      System.exit(0); // no close(): the shutdown hook must stop LocalStack
    }
    Thread.sleep(Long.MAX_VALUE); // until killed
  }
}
