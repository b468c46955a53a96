package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The mount table (Linux /proc/mounts): which file system a directory is on. */
public final class Mounts {

  /** One mount: its source (device, {@code server:/export}), mount point, type and options. */
  public static final class Mount {
    public final String source;
    public final Path mountPoint;
    public final String type;
    public final String options;

    public Mount(Path mountPoint, String type) {
      this("", mountPoint, type, "");
    }

    public Mount(String source, Path mountPoint, String type, String options) {
      this.source = source;
      this.mountPoint = mountPoint;
      this.type = type;
      this.options = options;
    }
  }

  private Mounts() {
  }

  /** The mounts of this machine; empty where /proc/mounts does not exist. */
  public static List<Mount> fromProc() throws IOException {
    Path proc = Path.of("/proc/mounts");
    if (!Files.exists(proc)) {
      return Collections.emptyList();
    }
    return parse(Files.readAllLines(proc, StandardCharsets.UTF_8));
  }

  static List<Mount> parse(List<String> lines) {
    List<Mount> out = new ArrayList<>();
    for (String line : lines) {
      String[] f = line.split(" ");
      if (f.length >= 3) {
        out.add(new Mount(unescape(f[0]), Path.of(unescape(f[1])), f[2], f.length >= 4 ? f[3] : ""));
      }
    }
    return out;
  }

  /** /proc/mounts escapes space, tab, newline and backslash as octal. */
  static String unescape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
        b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The mount with the longest mount point containing {@code dir}, or null. */
  public static Mount containing(List<Mount> mounts, Path dir) {
    Mount best = null;
    for (Mount m : mounts) {
      if (dir.startsWith(m.mountPoint) && (best == null || m.mountPoint.getNameCount() >= best.mountPoint.getNameCount())) {
        best = m;
      }
    }
    return best;
  }
}
