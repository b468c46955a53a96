package io.objectcommit.it.seeded;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

/**
 * The seeds a seeded run uses. By default the few of every build ({@link #BUILD}); the system property
 * {@value #PROPERTY} (passed by {@code mvn -D...} or {@code bin/run-fault-seeds}) overrides them: {@code N}
 * means seeds 1..N, {@code A..B} the seeds A to B, {@code A,B,C} exactly those.
 */
public final class SeedSet {

  public static final String PROPERTY = "objectcommit.seeds";
  /** Set to {@code true} to run the stock contenders too (they are only recorded, never asserted). */
  public static final String STOCK_PROPERTY = "objectcommit.seeds.stock";
  static final List<Long> BUILD = List.of(1L, 2L);

  private SeedSet() {
  }

  /** The seeds of this run. */
  public static List<Long> seeds() {
    return parse(System.getProperty(PROPERTY));
  }

  static List<Long> parse(String value) {
    if (value == null || value.isBlank()) {
      return BUILD;
    }
    String v = value.trim();
    try {
      if (v.contains(",")) {
        List<Long> out = new ArrayList<>();
        for (String s : v.split(",")) {
          if (!s.isBlank()) {
            out.add(Long.parseLong(s.trim()));
          }
        }
        return List.copyOf(out);
      }
      int range = v.indexOf("..");
      if (range >= 0) {
        long from = Long.parseLong(v.substring(0, range).trim());
        long to = Long.parseLong(v.substring(range + 2).trim());
        return LongStream.rangeClosed(from, to).boxed().toList();
      }
      return LongStream.rangeClosed(1, Long.parseLong(v)).boxed().toList();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PROPERTY + " must be N, A..B or A,B,C; got '" + value + "'", e);
    }
  }

  /** Whether the stock contenders run ({@value #STOCK_PROPERTY}). */
  public static boolean stock() {
    return Boolean.getBoolean(STOCK_PROPERTY);
  }
}
