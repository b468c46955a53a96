package io.objectcommit.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What one cost-curve run measures ({@code bin/run-cost-curves}; docs/benchmarks.md, "Cost curves"): writes of
 * growing numbers of small files spread over tasks, one task writing many files, checkpoints at growing shuffle
 * partition counts, each contender at each size while {@link CostBudget} projects it under the budget. Immutable.
 *
 * <p>{@link #parse(List)} reads {@code key=value} pairs over {@link #defaults()}: {@code files} (comma-separated
 * write sizes, ascending; empty: none), {@code one-task-files} (files of the one-task write; 0: none),
 * {@code partitions} (comma-separated, ascending; empty: no checkpoints), {@code batches} (measured micro-batches),
 * {@code budget-s} (seconds a contender's next size may be projected to take), {@code latency-ms}, {@code master},
 * {@code write-contenders} and {@code checkpoint-contenders} (comma-separated, case-insensitive parts of contender
 * names, for example {@code direct,staging}; {@code all}: every one; empty: none).
 *
 * @param latencyMs latency the proxy adds to every S3 request
 * @param master Spark master of every session
 * @param files write sizes, files in all, ascending
 * @param oneTaskFiles files of the one-task write, 0 for none
 * @param partitions shuffle partition counts of the checkpoint curve, ascending
 * @param batches measured micro-batches per checkpoint size
 * @param budgetSeconds what a contender's next size may be projected to take
 * @param writeContenders parts of the write contenders' names to run, or {@code all}
 * @param checkpointContenders parts of the checkpoint contenders' names to run, or {@code all}
 * @param outputDir where the reports go
 */
public record CurveSettings(long latencyMs, String master, List<Integer> files, int oneTaskFiles,
    List<Integer> partitions, int batches, double budgetSeconds, List<String> writeContenders,
    List<String> checkpointContenders, Path outputDir) {

  /** Files per task of the spread writes, as in the benchmark's "1,000 small files" shape (20 tasks × 50 files). */
  public static final int FILES_PER_TASK = 50;
  /** Rows per small file: the benchmark's small-file row count (about 20 KB of Parquet). */
  public static final long ROWS_PER_SMALL_FILE = 800;
  /** Default seconds a contender's next size may be projected to take: {@value}. */
  public static final double BUDGET_SECONDS_DEFAULT = 200;
  /** Default measured micro-batches per checkpoint size: {@value}. */
  public static final int BATCHES_DEFAULT = 2;
  static final String ALL = "all";

  public CurveSettings {
    files = List.copyOf(files);
    partitions = List.copyOf(partitions);
    writeContenders = writeContenders.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
    checkpointContenders = checkpointContenders.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
    requireAscending("files", files);
    requireAscending("partitions", partitions);
    files.forEach(CurveSettings::spread);
    if (oneTaskFiles < 0) {
      throw new IllegalArgumentException("one-task-files must not be negative, was " + oneTaskFiles);
    }
    if (batches < 1) {
      throw new IllegalArgumentException("batches must be at least 1, was " + batches);
    }
    if (!(budgetSeconds > 0)) {
      throw new IllegalArgumentException("budget-s must be positive, was " + budgetSeconds);
    }
    if (latencyMs < 0) {
      throw new IllegalArgumentException("latency-ms must not be negative, was " + latencyMs);
    }
  }

  /** The default run: 100, 1,000 and 10,000 files, one task writing 1,000, checkpoints at 8, 200 and 1,000. */
  public static CurveSettings defaults() {
    return new CurveSettings(BenchSettings.LATENCY_MS_DEFAULT, BenchSettings.MASTER_DEFAULT,
        List.of(100, 1000, 10_000), 1000, List.of(8, 200, 1000), BATCHES_DEFAULT, BUDGET_SECONDS_DEFAULT,
        List.of(ALL), List.of(ALL), BenchSettings.OUTPUT_DIR_DEFAULT);
  }

  /** {@code key=value ...} over {@link #defaults()}. */
  public static CurveSettings parse(List<String> args) {
    CurveSettings s = defaults();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected key=value, got '" + arg + "'");
      }
      s = s.with(arg.substring(0, eq), arg.substring(eq + 1).trim());
    }
    return s;
  }

  /** A copy with one setting changed, by its command-line key. */
  public CurveSettings with(String key, String value) {
    try {
      return switch (key) {
        case "files" -> new CurveSettings(latencyMs, master, ints(value), oneTaskFiles, partitions, batches,
            budgetSeconds, writeContenders, checkpointContenders, outputDir);
        case "one-task-files" -> new CurveSettings(latencyMs, master, files, Integer.parseInt(value), partitions,
            batches, budgetSeconds, writeContenders, checkpointContenders, outputDir);
        case "partitions" -> new CurveSettings(latencyMs, master, files, oneTaskFiles, ints(value), batches,
            budgetSeconds, writeContenders, checkpointContenders, outputDir);
        case "batches" -> new CurveSettings(latencyMs, master, files, oneTaskFiles, partitions,
            Integer.parseInt(value), budgetSeconds, writeContenders, checkpointContenders, outputDir);
        case "budget-s" -> new CurveSettings(latencyMs, master, files, oneTaskFiles, partitions, batches,
            Double.parseDouble(value), writeContenders, checkpointContenders, outputDir);
        case "latency-ms" -> new CurveSettings(Long.parseLong(value), master, files, oneTaskFiles, partitions,
            batches, budgetSeconds, writeContenders, checkpointContenders, outputDir);
        case "master" -> new CurveSettings(latencyMs, value, files, oneTaskFiles, partitions, batches,
            budgetSeconds, writeContenders, checkpointContenders, outputDir);
        case "write-contenders" -> new CurveSettings(latencyMs, master, files, oneTaskFiles, partitions, batches,
            budgetSeconds, names(value), checkpointContenders, outputDir);
        case "checkpoint-contenders" -> new CurveSettings(latencyMs, master, files, oneTaskFiles, partitions,
            batches, budgetSeconds, writeContenders, names(value), outputDir);
        default -> throw new IllegalArgumentException("unknown cost-curve setting '" + key + "' (known: files,"
            + " one-task-files, partitions, batches, budget-s, latency-ms, master, write-contenders,"
            + " checkpoint-contenders)");
      };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("cost-curve setting " + key + ": not a number: '" + value + "'", e);
    }
  }

  /** A copy writing its reports to {@code dir}. */
  public CurveSettings withOutputDir(Path dir) {
    return new CurveSettings(latencyMs, master, files, oneTaskFiles, partitions, batches, budgetSeconds,
        writeContenders, checkpointContenders, dir);
  }

  /** The spread write of {@code n} files: {@link #FILES_PER_TASK} files per task (one task below that). */
  public static WriteShape spread(int n) {
    int tasks = Math.max(1, n / FILES_PER_TASK);
    if (tasks > 1 && n % FILES_PER_TASK != 0) {
      throw new IllegalArgumentException("files=" + n + ": not a multiple of " + FILES_PER_TASK
          + " files per task");
    }
    return new WriteShape(String.format(Locale.ROOT, "%,d files", n), n, tasks, ROWS_PER_SMALL_FILE);
  }

  /** The one-task write, or null when {@link #oneTaskFiles} is 0. */
  public WriteShape oneTask() {
    return oneTaskFiles == 0 ? null : new WriteShape(String.format(Locale.ROOT, "1 task x %,d files",
        oneTaskFiles), oneTaskFiles, 1, ROWS_PER_SMALL_FILE);
  }

  /**
   * Whether the contender named {@code name} is selected by {@code selection}: by {@link #ALL} or by a part of its
   * name made of whole words ({@code direct} selects "objectcommit direct", not "S3A directory").
   */
  static boolean selected(List<String> selection, String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return selection.stream().anyMatch(s -> s.equals(ALL)
        || Pattern.compile("(^|\\W)" + Pattern.quote(s) + "($|\\W)").matcher(n).find());
  }

  /** The settings as a flat map, for the reports. */
  public Map<String, Object> describe() {
    Map<String, Object> m = new TreeMap<>();
    m.put("latencyMs", latencyMs);
    m.put("master", master);
    m.put("files", files);
    m.put("oneTaskFiles", oneTaskFiles);
    m.put("partitions", partitions);
    m.put("batches", batches);
    m.put("budgetSeconds", budgetSeconds);
    m.put("writeContenders", writeContenders);
    m.put("checkpointContenders", checkpointContenders);
    return m;
  }

  private static List<Integer> ints(String value) {
    return value.isBlank() ? List.of()
        : Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf).toList();
  }

  private static List<String> names(String value) {
    return Arrays.stream(value.split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
  }

  private static void requireAscending(String key, List<Integer> values) {
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) <= 0 || (i > 0 && values.get(i) <= values.get(i - 1))) {
        throw new IllegalArgumentException(key + " must be positive and ascending, was " + values);
      }
    }
  }
}
