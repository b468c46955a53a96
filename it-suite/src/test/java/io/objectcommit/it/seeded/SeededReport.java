package io.objectcommit.it.seeded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends one line per seeded run to {@code target/seeded-runs/results.tsv} of the module (component, seed,
 * exact or not, what was wrong, the counts), the raw material of docs/reliability.md's table.
 */
final class SeededReport {

  static final Path FILE = Path.of("target", "seeded-runs", "results.tsv");

  private SeededReport() {
  }

  static synchronized void append(String component, long seed, boolean exact, String summary) {
    String line = String.join("\t", component, Long.toString(seed), exact ? "exact" : "NOT EXACT",
        summary.replace('\t', ' ').replace('\n', ' ')) + "\n";
    try {
      Files.createDirectories(FILE.getParent());
      Files.writeString(FILE, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + FILE.toAbsolutePath(), e);
    }
  }
}
