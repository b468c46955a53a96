package io.objectcommit.bench.codecs;

import io.objectcommit.bench.codecs.CodecBenchSettings.Location;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * The codec benchmark's report: one table per location (format x partitions, wall time, CPU, CPU per uncompressed
 * GB, bytes read), the single-stream decompressions, and the targets for BGZF, indexed gzip and seekable
 * zstd, each met or missed with its numbers.
 */
final class CodecReport {

  /** The cores of the cluster the report projects a wall time for (docs/benchmarks.md says how). */
  static final int PROJECTED_CORES = 32;

  private CodecReport() {
  }

  /**
   * One target's outcome.
   *
   * @param format the format
   * @param location where
   * @param target what was to be shown
   * @param met whether the run shows it
   * @param detail the numbers
   */
  record Outcome(TextFormat format, Location location, String target, boolean met, String detail) {
  }

  /**
   * The summary of one format at one location.
   *
   * @param format the format
   * @param location where
   * @param runs measurements summarised
   * @param partitions partitions (the median; the same in every run)
   * @param wallS wall time, seconds
   * @param taskCpuS task CPU, seconds
   * @param jvmCpuS the JVM's CPU, seconds
   * @param longestTaskS the longest task, seconds
   * @param bytesRead bytes from S3
   */
  record Row(TextFormat format, Location location, int runs, int partitions, Spread wallS, Spread taskCpuS,
      Spread jvmCpuS, Spread longestTaskS, Spread bytesRead) {

    /** Task CPU over wall time (medians): the cores the count had on average. */
    double coresUsed() {
      return taskCpuS.median() / wallS.median();
    }

    /** Task CPU seconds per 10^9 bytes of uncompressed text. */
    double cpuPerGb(long textBytes) {
      return taskCpuS.median() / (textBytes / 1e9);
    }

    /**
     * The wall time on {@code cores} cores, each with its own connection of {@code bytesPerSecond} (0: local disk):
     * at most {@code partitions} tasks run at once, each a {@code partitions}-th of the CPU (the splits are of one
     * size) and of the bytes. The longest task measured here is not used: on a starved machine it is inflated.
     */
    double projectedWall(int cores, long bytesPerSecond) {
      int parallel = Math.min(cores, partitions);
      double cpu = taskCpuS.median() / parallel;
      return bytesPerSecond == 0 ? cpu : Math.max(cpu, bytesRead.median() / parallel / bytesPerSecond);
    }
  }

  static Optional<Row> row(CodecBenchResults r, TextFormat f, Location l) {
    List<Measurement> ms = r.of(f, l);
    if (ms.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Row(f, l, ms.size(), (int) spread(ms, Measurement::partitions).median(),
        spread(ms, Measurement::wallMs).div(1000), spread(ms, Measurement::taskCpuNs).div(1e9),
        spread(ms, Measurement::jvmCpuNs).div(1e9), spread(ms, Measurement::longestTaskMs).div(1000),
        spread(ms, Measurement::bytesFromS3)));
  }

  private static Spread spread(List<Measurement> ms, ToLongFunction<Measurement> field) {
    return Spread.of(ms.stream().map(m -> field.applyAsLong(m)).toList());
  }

  static String render(CodecBenchResults r) {
    CodecBenchSettings s = r.settings();
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("Run of %s: %s; load average (1, 5, 15 min) %s at the start, %s at the end.%n%n",
        r.date(), r.machine(), r.loadAtStart(), r.loadAtEnd()));
    sb.append(String.format("Text: %,d lines, %,d bytes (%.2f GB). Proxy in front of S3: %d ms + 0-%d ms per request,"
        + " %s per connection. %d runs per format and location, round-robin; Spark %s, `sc.textFile(path).count()`."
        + "%n%n", r.lines(), r.textBytes(), r.textBytes() / 1e9, s.latencyMs(), s.jitterMs(),
        s.bandwidthBytesPerSecond() == 0 ? "no bandwidth limit" : String.format("%.0f MB/s",
            s.bandwidthBytesPerSecond() / 1e6), s.runs(), s.master()));
    sb.append("| file | bytes | of the text | single-stream decompression, CPU s |\n|---|---:|---:|---:|\n");
    new java.util.TreeMap<>(r.sizes()).forEach((name, size) -> sb.append(String.format("| `%s` | %,d | %.1f%% | %s |%n",
        name, size, 100.0 * size / r.textBytes(), r.singleStream().containsKey(name)
            ? Spread.of(r.singleStream().get(name)).div(1e9).format("%.2f") : "-")));
    sb.append('\n');
    for (Location l : s.locations()) {
      sb.append("**").append(l.label()).append("** (median [min-max] of the runs):\n\n");
      sb.append("| format | partitions | wall s | task CPU s | cores used | CPU s per GB | JVM CPU s | longest task s"
          + (l == Location.S3 ? " | MB read from S3 | read / file size" : "")
          + " | projected s, " + PROJECTED_CORES + " cores |\n");
      sb.append("|---|---:|---:|---:|---:|---:|---:|---:" + (l == Location.S3 ? "|---:|---:" : "") + "|---:|\n");
      for (TextFormat f : s.formats()) {
        Optional<Row> row = row(r, f, l);
        if (row.isEmpty()) {
          sb.append("| ").append(f.label()).append(" | failed |\n");
          continue;
        }
        Row w = row.get();
        sb.append(String.format("| %s | %d | %s | %s | %.2f | %.2f | %s | %.1f", f.label(), w.partitions(),
            w.wallS().format("%.1f"), w.taskCpuS().format("%.1f"), w.coresUsed(), w.cpuPerGb(r.textBytes()),
            w.jvmCpuS().format("%.1f"), w.longestTaskS().median()));
        if (l == Location.S3) {
          sb.append(String.format(" | %s | %.3f", w.bytesRead().div(1e6).format("%.0f"),
              w.bytesRead().median() / r.compressedSize(f)));
        }
        sb.append(String.format(" | %.1f |%n", w.projectedWall(PROJECTED_CORES, l == Location.S3
            ? s.bandwidthBytesPerSecond() : 0)));
      }
      sb.append('\n');
    }
    if (!r.failures().isEmpty()) {
      sb.append("Failed:\n\n");
      r.failures().forEach(f -> sb.append("- ").append(f).append('\n'));
      sb.append('\n');
    }
    sb.append("Targets (issue 30, must-have 4):\n\n| format | location | target | met | numbers |\n|---|---|---|---|---|\n");
    for (Outcome o : targets(r)) {
      sb.append(String.format("| %s | %s | %s | %s | %s |%n", o.format().label(), o.location().label(), o.target(),
          o.met() ? "yes" : "**no**", o.detail()));
    }
    return sb.toString();
  }

  /** The targets of BGZF, indexed gzip and seekable zstd at each location, where the run has what they compare. */
  static List<Outcome> targets(CodecBenchResults r) {
    List<Outcome> out = new ArrayList<>();
    for (Location l : r.settings().locations()) {
      Optional<Row> plain = row(r, TextFormat.UNCOMPRESSED, l);
      Optional<Row> gz = row(r, TextFormat.GZIP, l);
      // what cutting the text into lines costs without decompression or a network client: the uncompressed file
      // from local disk (on S3 its task CPU also holds S3A reading five times the bytes of a compressed file)
      Optional<Row> lineReading = row(r, TextFormat.UNCOMPRESSED, Location.LOCAL).or(() -> plain);
      for (TextFormat f : r.settings().formats()) {
        Optional<Row> row = row(r, f, l);
        if (!f.targeted() || row.isEmpty()) {
          continue;
        }
        Row w = row.get();
        plain.ifPresent(p -> {
          double off = w.partitions() / (double) p.partitions() - 1;
          out.add(new Outcome(f, l, "partitions within 10% of the uncompressed file's", Math.abs(off) <= 0.10,
              String.format("%d vs %d (%+.0f%%)", w.partitions(), p.partitions(), off * 100)));
        });
        r.singleStreamSeconds(f).ifPresent(one -> {
          double ratio = w.taskCpuS().median() / one.median();
          out.add(new Outcome(f, l, "task CPU <= 1.15x one single-stream decompression", ratio <= 1.15,
              String.format("%.1f s vs %.1f s: %.2fx", w.taskCpuS().median(), one.median(), ratio)));
          lineReading.ifPresent(p -> {
            double net = (w.taskCpuS().median() - p.taskCpuS().median()) / one.median();
            out.add(new Outcome(f, l, "the same, net of line reading (task CPU minus the uncompressed file's on"
                + " local disk)", net <= 1.15, String.format("(%.1f - %.1f) s vs %.1f s: %.2fx",
                    w.taskCpuS().median(), p.taskCpuS().median(), one.median(), net)));
          });
        });
        gz.ifPresent(g -> {
          double ratio = w.wallS().median() / g.wallS().median();
          out.add(new Outcome(f, l, "wall time <= 0.6x plain gzip's", ratio <= 0.6, String.format(
              "%.1f s vs %.1f s: %.2fx", w.wallS().median(), g.wallS().median(), ratio)));
        });
        if (l == Location.S3) {
          double ratio = w.bytesRead().median() / r.compressedSize(f);
          out.add(new Outcome(f, l, "bytes read <= 1.05x the compressed size", ratio <= 1.05, String.format(
              "%,.0f vs %,d: %.3fx", w.bytesRead().median(), r.compressedSize(f), ratio)));
        }
      }
    }
    return out;
  }

  static Map<String, Object> toJson(CodecBenchResults r) {
    Map<String, Object> m = r.toMap();
    List<Object> rows = new ArrayList<>();
    for (Location l : r.settings().locations()) {
      for (TextFormat f : r.settings().formats()) {
        row(r, f, l).ifPresent(w -> {
          Map<String, Object> x = new LinkedHashMap<>();
          x.put("format", f.key());
          x.put("location", l.name().toLowerCase(java.util.Locale.ROOT));
          x.put("runs", w.runs());
          x.put("partitions", w.partitions());
          x.put("wall_s", w.wallS().toMap());
          x.put("task_cpu_s", w.taskCpuS().toMap());
          x.put("task_cpu_s_per_gb", w.cpuPerGb(r.textBytes()));
          x.put("cores_used", w.coresUsed());
          x.put("jvm_cpu_s", w.jvmCpuS().toMap());
          x.put("longest_task_s", w.longestTaskS().toMap());
          x.put("bytes_from_s3", w.bytesRead().toMap());
          x.put("compressed_bytes", r.compressedSize(f));
          x.put("projected_wall_s_" + PROJECTED_CORES + "_cores", w.projectedWall(PROJECTED_CORES,
              l == Location.S3 ? r.settings().bandwidthBytesPerSecond() : 0));
          rows.add(x);
        });
      }
    }
    m.put("summary", rows);
    List<Object> ts = new ArrayList<>();
    for (Outcome o : targets(r)) {
      ts.add(Map.of("format", o.format().key(), "location", o.location().name().toLowerCase(java.util.Locale.ROOT),
          "target", o.target(), "met", o.met(), "detail", o.detail()));
    }
    m.put("targets", ts);
    return m;
  }
}
