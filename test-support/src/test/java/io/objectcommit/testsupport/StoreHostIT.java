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
import java.util.Set;
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
          exposed.addAll(nonLoopbackListeners(proc));
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

  /** Listening TCP sockets (in our namespace) owned by the process and bound to anything but 127.0.0.1. */
  private static List<String> nonLoopbackListeners(Path proc) throws IOException {
    Set<String> inodes;
    try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
      inodes = fds.map(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString();
        } catch (IOException gone) {
          return "";
        }
      }).filter(l -> l.startsWith("socket:[")).map(l -> l.substring(8, l.length() - 1)).collect(Collectors.toSet());
    }
    List<String> out = new ArrayList<>();
    for (String table : List.of("tcp", "tcp6")) {
      for (String line : Files.readAllLines(proc.resolve("net/" + table)).subList(1,
          Files.readAllLines(proc.resolve("net/" + table)).size())) {
        String[] f = line.trim().split("\\s+");
        boolean listening = "0A".equals(f[3]);
        String local = f[1].split(":")[0];
        boolean loopback = local.equals("0100007F") || local.equals("0000000000000000FFFF00000100007F")
            || local.equals("00000000000000000000000001000000");
        if (listening && inodes.contains(f[9]) && !loopback) {
          out.add(table + " " + f[1]);
        }
      }
    }
    return out;
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
