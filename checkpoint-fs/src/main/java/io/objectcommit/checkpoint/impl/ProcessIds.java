package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's uid and gid, for error messages (Linux: /proc/self/status). */
final class ProcessIds {

  private ProcessIds() {
  }

  static String describe() {
    Path status = Path.of("/proc/self/status");
    try {
      String uid = null;
      String gid = null;
      for (String line : Files.readAllLines(status, StandardCharsets.UTF_8)) {
        if (line.startsWith("Uid:")) {
          uid = line.substring(4).trim().split("\\s+")[1]; // effective uid
        } else if (line.startsWith("Gid:")) {
          gid = line.substring(4).trim().split("\\s+")[1];
        }
      }
      return "uid " + uid + ", gid " + gid;
    } catch (IOException | RuntimeException e) {
      return "uid/gid unknown";
    }
  }
}
