package io.objectcommit.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** A benchmark's three reports: {@code <name>.md}, {@code <name>.json} and {@code <name>.svg} in one directory. */
final class ReportFiles {

  private ReportFiles() {
  }

  /** Writes them (the directory made if missing) and says where they are. */
  static void write(Path out, String name, String markdown, String json, String svg) {
    try {
      Files.createDirectories(out);
      Files.writeString(out.resolve(name + ".md"), markdown);
      Files.writeString(out.resolve(name + ".json"), json);
      Files.writeString(out.resolve(name + ".svg"), svg);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the " + name + " reports to " + out, e);
    }
    Progress.say("reports: " + out.resolve(name + ".md") + ", " + name + ".json, " + name + ".svg");
  }

  /** The start of a report's JSON object, the same in every report: when, on what machine, with which settings. */
  static Map<String, Object> jsonHeader(String date, String machine, Map<String, Object> settings) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("date", date);
    m.put("machine", machine);
    if (settings != null) {
      m.put("settings", new LinkedHashMap<>(settings));
    }
    return m;
  }
}
