package io.objectcommit.it.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * Deterministic input for the streaming scenarios: CSV files in a local directory (so that only the checkpoint
 * goes through S3), file {@code i} holding the integers {@code 100 i .. 100 i + 99}. The query counts them by
 * {@code value % 5}, so after {@code n} files every key's count is {@code 20 n}.
 */
public final class StreamInput {

  public static final int KEYS = 5;
  private final Path dir;

  public StreamInput(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  /** Adds file {@code i}, atomically (written under a hidden name, then renamed). */
  public void addFile(int i) {
    String lines = LongStream.range(100L * i, 100L * i + 100).mapToObj(Long::toString)
        .collect(Collectors.joining("\n", "", "\n"));
    try {
      Path tmp = dir.resolve(".in-" + i + ".tmp");
      Files.writeString(tmp, lines);
      Files.move(tmp, dir.resolve(String.format("in-%03d.csv", i)), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot add input file " + i + " to " + dir, e);
    }
  }

  /** The counts by key after {@code files} files. */
  public static Map<Integer, Long> expectedCounts(int files) {
    Map<Integer, Long> m = new TreeMap<>();
    for (int k = 0; k < KEYS; k++) {
      m.put(k, 20L * files);
    }
    return m;
  }
}
