package io.objectcommit.bench;

import io.objectcommit.bench.ReadBenchResults.Summary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The read-cache benchmark's reports ({@code readcache.md}, {@code .json}, {@code .svg}) and its targets (issue 29:
 * must-have 6's and must-have 4's).
 */
final class ReadCacheReport {

  /** Must-have 6: the warm read of a second application against stock S3A at the largest size. */
  static final double WARM_SPEED_UP_MIN = 10;
  /** Must-have 6: the slowest warm run over the median. */
  static final double WARM_MAX_OVER_MEDIAN = 1.2;
  /** Must-have 4: a cold read at most this much slower than stock S3A's default stream. */
  static final double COLD_OVER_STOCK_MAX = 1.05;

  private ReadCacheReport() {
  }

  static void write(Path out, ReadBenchResults r) {
    try {
      Files.createDirectories(out);
      Files.writeString(out.resolve("readcache.md"), markdown(r));
      Files.writeString(out.resolve("readcache.json"), Json.write(r.toMap()));
      Files.writeString(out.resolve("readcache.svg"), svg(r));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the read-cache benchmark reports to " + out, e);
    }
    Progress.say("reports: " + out.resolve("readcache.md") + ", readcache.json, readcache.svg");
  }

  static String markdown(ReadBenchResults r) {
    ReadBenchSettings s = r.settings();
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "Run of %s: %s; Spark %s, each application a JVM of its own (-Xmx%s),"
        + " warmed up on a local table before its measured read; proxy: %s; %d runs of each contender, interleaved"
        + " round by round.%n%n", r.date(), r.machine(),
        s.master(), s.heap(), s.proxyDescription(), s.runs()));
    for (int size : s.sizesMb()) {
      ReadTable t = r.tables().get(size);
      if (t == null) {
        continue;
      }
      sb.append(String.format(Locale.ROOT, "%d MB: %,d bytes of Parquet in %d files, %,d rows:%n%n", size,
          t.bytes(), t.keys().size(), t.rows()));
      sb.append("| contender | read and sums, s: median [min-max] | max/median | vs stock | application s"
          + " | GET | HEAD | requests | MB from S3 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      Summary stock = r.summary(size, ReadContender.STOCK);
      for (Summary m : r.summaries(size)) {
        sb.append(String.format(Locale.ROOT, "| %s | %.2f [%.2f-%.2f] | %.2f | %s | %.1f | %,.0f | %,.0f | %,.0f"
            + " | %,.1f |%n", m.contender().label(), m.medianMs() / 1000, m.minMs() / 1000.0, m.maxMs() / 1000.0,
            m.maxOverMedian(), stock == null ? "-" : String.format(Locale.ROOT, "%.1fx", stock.medianMs()
                / m.medianMs()), m.applicationMedianMs() / 1000, m.gets(),
            m.heads(), m.requests(), m.bytes() / 1e6));
      }
      sb.append('\n');
    }
    if (!r.unavailable().isEmpty()) {
      sb.append("Not run on this line:\n\n");
      r.unavailable().forEach((c, why) -> sb.append("- ").append(c.label()).append(": ").append(why).append('\n'));
      sb.append('\n');
    }
    if (!r.staleChecks().isEmpty()) {
      sb.append("Stale-read case (table overwritten in place between two warm applications):\n\n");
      for (ReadBenchResults.StaleCheck c : r.staleChecks()) {
        sb.append(String.format(Locale.ROOT, "- %d MB: before %s, after the overwrite %s, expected %s: %s%n",
            c.sizeMb(), c.before(), c.after(), c.expected(), c.fresh() ? "fresh" : "**STALE**"));
      }
      sb.append('\n');
    }
    if (!r.failures().isEmpty()) {
      sb.append("Failed:\n\n");
      r.failures().forEach(f -> sb.append("- ").append(f).append('\n'));
      sb.append('\n');
    }
    sb.append("Targets:\n\n| target | met | numbers |\n|---|---|---|\n");
    for (Targets.Outcome t : targets(r)) {
      sb.append("| ").append(t.target()).append(" | ").append(t.met() ? "yes" : "**no**").append(" | ")
          .append(t.detail()).append(" |\n");
    }
    return sb.toString();
  }

  static List<Targets.Outcome> targets(ReadBenchResults r) {
    List<Targets.Outcome> out = new ArrayList<>();
    List<Integer> sizes = r.settings().sizesMb().stream().filter(r.tables()::containsKey).toList();
    if (sizes.isEmpty()) {
      return out;
    }
    int largest = sizes.get(sizes.size() - 1);
    Summary stockL = r.summary(largest, ReadContender.STOCK);
    Summary warmL = r.summary(largest, ReadContender.CACHE_WARM);
    if (stockL != null && warmL != null) {
      double x = stockL.medianMs() / warmL.medianMs();
      out.add(new Targets.Outcome("warm read >= " + (int) WARM_SPEED_UP_MIN + "x faster than stock S3A at "
          + largest + " MB", x >= WARM_SPEED_UP_MIN, String.format(Locale.ROOT, "%.1fx (%.2f s against %.2f s)", x,
              warmL.medianMs() / 1000, stockL.medianMs() / 1000)));
    }
    for (int size : sizes) {
      Summary warm = r.summary(size, ReadContender.CACHE_WARM);
      if (warm != null) {
        out.add(new Targets.Outcome("warm max/median <= " + WARM_MAX_OVER_MEDIAN + " at " + size + " MB",
            warm.maxOverMedian() <= WARM_MAX_OVER_MEDIAN, String.format(Locale.ROOT, "%.2f (%.2f s / %.2f s)",
                warm.maxOverMedian(), warm.maxMs() / 1000.0, warm.medianMs() / 1000)));
      }
    }
    for (int size : sizes) {
      Summary stock = r.summary(size, ReadContender.STOCK);
      Summary cold = r.summary(size, ReadContender.CACHE_COLD);
      if (stock != null && cold != null) {
        double ratio = cold.medianMs() / stock.medianMs();
        out.add(new Targets.Outcome("cold read at most 5% slower than stock S3A at " + size + " MB (must-have 4)",
            ratio <= COLD_OVER_STOCK_MAX, String.format(Locale.ROOT, "%+.1f%% (%.2f s against %.2f s)",
                (ratio - 1) * 100, cold.medianMs() / 1000, stock.medianMs() / 1000)));
      }
    }
    long wrong = r.runs().stream().filter(x -> !x.correct()).count();
    long stale = r.staleChecks().stream().filter(c -> !c.fresh()).count();
    out.add(new Targets.Outcome("zero stale results", wrong == 0 && stale == 0 && !r.staleChecks().isEmpty(),
        String.format(Locale.ROOT, "%d of %d applications with wrong sums; %d of %d stale-read cases stale", wrong,
            r.runs().size(), stale, r.staleChecks().size())));
    return out;
  }

  static String svg(ReadBenchResults r) {
    List<SvgChart.Panel> panels = new ArrayList<>();
    for (int size : r.settings().sizesMb()) {
      List<Summary> ss = r.summaries(size);
      if (ss.isEmpty()) {
        continue;
      }
      panels.add(new SvgChart.Panel(size + " MB: median wall time of the read and sums (s)", "%.2f s",
          ss.stream().map(m -> new SvgChart.Bar(m.contender().label(), m.medianMs() / 1000, m.contender().ours()))
              .toList()));
      panels.add(new SvgChart.Panel(size + " MB: MB from S3 per application", "%,.1f MB",
          ss.stream().map(m -> new SvgChart.Bar(m.contender().label(), m.bytes() / 1e6, m.contender().ours()))
              .toList()));
    }
    return SvgChart.render(String.format(Locale.ROOT, "Repeated reads by separate applications, %s (%s; %s)",
        r.date(), r.machine(), r.settings().proxyDescription()), panels);
  }
}
