package io.objectcommit.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * Input of the checkpoint benchmark's query: one CSV file per micro-batch in a local directory (so that only the
 * checkpoint goes to S3), file {@code i} holding {@value #ROWS_PER_FILE} integers from {@code ROWS_PER_FILE * i}.
 */
final class BatchInput {

  static final int ROWS_PER_FILE = 2_000;
  private final Path dir;

  BatchInput(Path dir) {
    this.dir = dir;
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the input directory " + dir, e);
    }
  }

  Path dir() {
    return dir;
  }

  /** Adds file {@code i} atomically (written under a hidden name, then renamed). */
  void addFile(int i) {
    String lines = LongStream.range((long) ROWS_PER_FILE * i, (long) ROWS_PER_FILE * (i + 1))
        .mapToObj(Long::toString).collect(Collectors.joining("\n", "", "\n"));
    try {
      Path tmp = dir.resolve(".in-" + i + ".tmp");
      Files.writeString(tmp, lines);
      Files.move(tmp, dir.resolve(String.format("in-%05d.csv", i)), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot add input file " + i + " to " + dir, e);
    }
  }
}
