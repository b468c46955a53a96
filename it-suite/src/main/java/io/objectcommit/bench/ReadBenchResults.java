package io.objectcommit.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of one read-cache benchmark run: every application's measurement, the tables, the stale-read checks,
 * the contenders that could not run and why, failures. Immutable.
 *
 * @param settings what was run
 * @param date when it started (ISO, UTC offset)
 * @param machine cores, endpoint, Spark and Hadoop versions
 * @param tables the table of each size, as first written
 * @param runs every measured application, in the order they ran
 * @param staleChecks the stale-read case of each size
 * @param unavailable contenders this line cannot run, with the reason
 * @param failures applications that failed or printed wrong sums
 */
public record ReadBenchResults(ReadBenchSettings settings, String date, String machine, Map<Integer, ReadTable> tables,
    List<ReadRun> runs, List<StaleCheck> staleChecks, Map<ReadContender, String> unavailable,
    List<String> failures) {

  /**
   * One stale-read case: a warm read, the table overwritten in place with other values, the next warm read.
   *
   * @param sizeMb the table's size
   * @param before the sums read before the overwrite
   * @param expected the new table's sums
   * @param after the sums the next warm application read
   */
  public record StaleCheck(int sizeMb, ReadTable.Sums before, ReadTable.Sums expected, ReadTable.Sums after) {

    /** Whether the read after the overwrite found the new sums. */
    public boolean fresh() {
      return expected.equals(after) && !before.equals(expected);
    }
  }

  /**
   * One contender at one size over its runs.
   *
   * @param medianMs median wall time
   * @param minMs fastest run
   * @param maxMs slowest run
   * @param applicationMedianMs median wall time of the whole application, JVM start to exit
   * @param gets median GETs per application
   * @param heads median HEADs per application
   * @param requests median requests per application
   * @param bytes median bytes from S3 per application
   */
  public record Summary(int sizeMb, ReadContender contender, int runs, double medianMs, long minMs, long maxMs,
      double applicationMedianMs, double gets, double heads, double requests, double bytes) {

    /** Slowest over median. */
    public double maxOverMedian() {
      return maxMs / medianMs;
    }
  }

  public ReadBenchResults {
    tables = Map.copyOf(tables);
    runs = List.copyOf(runs);
    staleChecks = List.copyOf(staleChecks);
    unavailable = Map.copyOf(unavailable);
    failures = List.copyOf(failures);
  }

  /** The summary of each contender that ran at {@code sizeMb}, in round order. */
  public List<Summary> summaries(int sizeMb) {
    List<Summary> out = new ArrayList<>();
    for (ReadContender c : settings.contenders()) {
      List<ReadRun> rs = runs.stream().filter(r -> r.sizeMb() == sizeMb && r.contender() == c).toList();
      if (rs.isEmpty()) {
        continue;
      }
      out.add(new Summary(sizeMb, c, rs.size(), median(rs.stream().mapToDouble(ReadRun::ms).toArray()),
          rs.stream().mapToLong(ReadRun::ms).min().orElseThrow(), rs.stream().mapToLong(ReadRun::ms).max()
              .orElseThrow(),
          median(rs.stream().mapToDouble(ReadRun::applicationMs).toArray()),
          median(rs.stream().mapToDouble(r -> r.requests().of("GET")).toArray()),
          median(rs.stream().mapToDouble(r -> r.requests().of("HEAD")).toArray()),
          median(rs.stream().mapToDouble(r -> r.requests().total()).toArray()),
          median(rs.stream().mapToDouble(ReadRun::bytesFromS3).toArray())));
    }
    return out;
  }

  /** The summary of {@code c} at {@code sizeMb}, or null when it did not run there. */
  public Summary summary(int sizeMb, ReadContender c) {
    return summaries(sizeMb).stream().filter(s -> s.contender() == c).findFirst().orElse(null);
  }

  /** The median of {@code values} (mean of the middle two when even); NaN when empty. */
  static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] v = values.clone();
    java.util.Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /** As JSON-ready maps and lists. */
  Map<String, Object> toMap() {
    Map<String, Object> m = ReportFiles.jsonHeader(date, machine, null);
    m.put("proxy", settings.proxyDescription());
    m.put("master", settings.master());
    m.put("runs_per_contender", settings.runs());
    List<Object> ts = new ArrayList<>();
    for (int size : settings.sizesMb()) {
      ReadTable t = tables.get(size);
      if (t == null) {
        continue;
      }
      Map<String, Object> tm = new LinkedHashMap<>();
      tm.put("size_mb", size);
      tm.put("bytes", t.bytes());
      tm.put("rows", t.rows());
      tm.put("files", t.keys().size());
      List<Object> ss = new ArrayList<>();
      for (Summary s : summaries(size)) {
        Map<String, Object> sm = new LinkedHashMap<>();
        sm.put("contender", s.contender().label());
        sm.put("runs", s.runs());
        sm.put("median_ms", s.medianMs());
        sm.put("min_ms", s.minMs());
        sm.put("max_ms", s.maxMs());
        sm.put("max_over_median", s.maxOverMedian());
        sm.put("application_median_ms", s.applicationMedianMs());
        sm.put("gets", s.gets());
        sm.put("heads", s.heads());
        sm.put("requests", s.requests());
        sm.put("bytes_from_s3", s.bytes());
        ss.add(sm);
      }
      tm.put("contenders", ss);
      ts.add(tm);
    }
    m.put("sizes", ts);
    List<Object> rs = new ArrayList<>();
    for (ReadRun r : runs) {
      Map<String, Object> rm = new LinkedHashMap<>();
      rm.put("size_mb", r.sizeMb());
      rm.put("contender", r.contender().label());
      rm.put("round", r.round());
      rm.put("ms", r.ms());
      rm.put("application_ms", r.applicationMs());
      rm.put("fill_ms", r.fillMs());
      rm.put("requests", new LinkedHashMap<>(r.requests().byOperation()));
      rm.put("bytes_from_s3", r.bytesFromS3());
      rm.put("sum_a", r.sums().a());
      rm.put("sum_b", r.sums().b());
      rm.put("correct", r.correct());
      rs.add(rm);
    }
    m.put("runs", rs);
    List<Object> st = new ArrayList<>();
    for (StaleCheck s : staleChecks) {
      st.add(Map.of("size_mb", s.sizeMb(), "fresh", s.fresh(), "after_a", s.after().a(), "after_b", s.after().b(),
          "expected_a", s.expected().a(), "expected_b", s.expected().b()));
    }
    m.put("stale_checks", st);
    Map<String, Object> un = new LinkedHashMap<>();
    unavailable.forEach((c, why) -> un.put(c.label(), why));
    m.put("unavailable", un);
    m.put("failures", failures);
    m.put("targets", ReadCacheReport.targets(this).stream().map(t -> Map.of("target", t.target(), "met", t.met(),
        "detail", t.detail())).toList());
    return m;
  }
}
