package io.objectcommit.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What a test server listens on, read from {@code /proc}: tests talk to 127.0.0.1 only, and so must the servers. */
final class LoopbackListeners {

  private LoopbackListeners() {
  }

  /**
   * Listening TCP sockets of process {@code pid}, in this JVM's network namespace, bound to anything but 127.0.0.1
   * (as {@code "tcp 00000000:1F90"}); empty when it listens on loopback only.
   */
  static List<String> beyondLoopback(long pid) throws IOException {
    Path proc = Path.of("/proc/" + pid);
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
      List<String> lines = Files.readAllLines(proc.resolve("net/" + table));
      for (String line : lines.subList(1, lines.size())) {
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
}
