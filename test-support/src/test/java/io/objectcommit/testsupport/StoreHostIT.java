package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A store of the matrix ({@value S3TestSettings#STORE}) listens on loopback only, and leaves no process and no
 * open port behind once closed. Runs when the chosen store is one that {@link StoreHost} starts.
 */
class StoreHostIT {

  @Test
  void listensOnLoopbackOnlyAndLeavesNothingBehind() throws Exception {
    S3Store store = S3TestSettings.fromEnvironment().store();
    assumeTrue(store != S3Store.LOCALSTACK && store != S3Store.EXTERNAL, "store " + store + " is not a StoreHost");
    StoreHost host = StoreHost.start(store, S3Endpoints.workDir().resolve("lifecycle"));
    List<ProcessHandle> tree;
    try {
      ProcessHandle server = ProcessHandle.of(host.serverPid().orElseThrow()).orElseThrow();
      tree = Stream.concat(Stream.of(server), server.descendants()).collect(Collectors.toList());
      String ownNs = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
      List<String> exposed = new ArrayList<>();
      for (ProcessHandle p : tree) {
        Path proc = Path.of("/proc/" + p.pid());
        String ns = Files.readSymbolicLink(proc.resolve("ns/net")).toString();
        if (ns.equals(ownNs)) {
          exposed.addAll(LoopbackListeners.beyondLoopback(p.pid()));
        } else {
          // a private namespace: it must have no interface but lo
          List<String> ifaces = Files.readAllLines(proc.resolve("net/dev")).stream().skip(2)
              .map(l -> l.trim().split(":")[0]).collect(Collectors.toList());
          assertEquals(List.of("lo"), ifaces, "interfaces of the private namespace of pid " + p.pid());
        }
      }
      assertEquals(List.of(), exposed, store.description() + " listens beyond loopback");
      assertTrue(canConnect(host.port()));
    } finally {
      host.close();
    }
    for (ProcessHandle p : tree) {
      assertTrue(p.onExit().toCompletableFuture().isDone() || !p.isAlive(), "pid " + p.pid() + " survived close()");
    }
    assertTrue(!canConnect(host.port()), "port " + host.port() + " still open after close()");
  }

  private static boolean canConnect(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
