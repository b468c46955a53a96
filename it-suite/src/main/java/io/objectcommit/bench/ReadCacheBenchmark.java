package io.objectcommit.bench;

import io.objectcommit.it.ChildJvms;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.S3TestSettings;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Seed 003's experiment as a benchmark (issue 29, must-have 6; docs/benchmarks.md, "Repeated reads by separate
 * applications"): at each size, a Parquet table of two float columns is written through the fault proxy (latency
 * and a bandwidth limit per connection), then each contender's application ({@link ReadApplication}, a JVM of its
 * own, so a separate Spark application) reads it and sums both columns, the contenders interleaved round by round
 * for the settings' number of rounds. The read cache's cold run empties the cache directory first; its warm run
 * follows it and finds the blocks the cold one left. Every application's sums must be the table's: a different sum
 * is a failure. After the rounds, the stale-read case: the table is overwritten in place with other values and one
 * more warm application must read the new sums. Then {@code readcache.md}, {@code readcache.json} and
 * {@code readcache.svg} in the output directory.
 */
public final class ReadCacheBenchmark {

  /** The longest one application may take before it is stopped and counted as failed. */
  static final Duration APPLICATION_TIMEOUT = Duration.ofMinutes(30);

  /** Rows of the applications' warm-up table (see {@link ReadApplication}): about 8 MB. */
  static final long WARM_UP_ROWS = 1_000_000;

  /** Seed of the first version of each table; the overwrite uses the next seeds. */
  static final long SEED = 3;

  private final ReadBenchSettings settings;
  private final S3Endpoint upstream;
  private final String machine;

  /**
   * @param settings what to run
   * @param upstream the S3 endpoint (LocalStack) the proxy forwards to
   * @param machine how the reports describe the machine and endpoint
   */
  public ReadCacheBenchmark(ReadBenchSettings settings, S3Endpoint upstream, String machine) {
    this.settings = settings;
    this.upstream = upstream;
    this.machine = machine;
  }

  /** Runs everything, writes the reports and returns the results. */
  public ReadBenchResults run() {
    String date = ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    Path out = settings.outputDir().toAbsolutePath();
    Path work = out.resolve("work-" + System.currentTimeMillis());
    Path cacheDir = work.resolve("cache");
    Path warmUp = work.resolve("warm-up-table");
    ReadTable.writeLocal(warmUp, WARM_UP_ROWS);
    Map<ReadContender, String> unavailable = new EnumMap<>(ReadContender.class);
    List<ReadContender> contenders = new ArrayList<>();
    for (ReadContender c : settings.contenders()) {
      Optional<String> why = c.unavailableReason();
      if (why.isPresent()) {
        unavailable.put(c, why.get());
        Progress.say("not run: " + c.label() + ": " + why.get());
      } else {
        contenders.add(c);
      }
    }
    Map<Integer, ReadTable> tables = new LinkedHashMap<>();
    List<ReadRun> runs = new ArrayList<>();
    List<ReadBenchResults.StaleCheck> stale = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    try (S3FaultProxy proxy = S3FaultProxy.start(upstream);
        S3TestBucket bucket = S3TestBucket.create(upstream, "readcache-bench",
            S3TestSettings.fromEnvironment().sharedBucket().orElse(null))) {
      proxy.setFaults(FaultPlan.builder(SEED).latency(Duration.ofMillis(settings.latencyMs()),
          Duration.ofMillis(settings.jitterMs())).bandwidthPerConnection(settings.bandwidthMbPerS() * 1_000_000)
          .build());
      Map<String, String> s3a = proxy.endpoint().s3aOptions();
      Progress.say("read-cache benchmark: proxy on port " + proxy.port() + ", " + settings.proxyDescription()
          + "; Spark " + settings.master() + "; contenders " + contenders.stream().map(ReadContender::label).toList());
      for (int size : settings.sizesMb()) {
        String relative = "table-" + size + "mb";
        long t0 = System.nanoTime();
        ReadTable table = ReadTable.write(bucket, s3a, relative, size * 1_000_000L, SEED);
        tables.put(size, table);
        Progress.say(String.format("table %d MB: %,d bytes in %d files, %,d rows, written", size, table.bytes(),
            table.keys().size(), table.rows()), t0);
        Path local = localTable(work, size);
        if (contenders.contains(ReadContender.LOCAL_DISK)) {
          copyToLocal(bucket, table, local);
        }
        for (int round = 1; round <= settings.runs(); round++) {
          for (ReadContender c : contenders) {
            if (c == ReadContender.CACHE_COLD) {
              deleteTree(cacheDir);
            }
            measure(proxy, s3a, cacheDir, warmUp, work, size, round, c, table, runs, failures);
          }
        }
        if (contenders.contains(ReadContender.CACHE_WARM)) {
          stale.add(staleCase(proxy, bucket, s3a, cacheDir, warmUp, work, size, relative, table, failures));
        }
        table.delete(bucket, relative);
        deleteTree(local);
      }
    }
    deleteTree(cacheDir);
    ReadBenchResults results = new ReadBenchResults(settings, date, machine, tables, runs, stale, unavailable,
        failures);
    ReadCacheReport.write(out, results);
    return results;
  }

  /**
   * The stale-read case: a warm read of the table as it is, the table overwritten in place, a warm read that must
   * find the new sums (the cache holds the old blocks under the old ETags).
   */
  private ReadBenchResults.StaleCheck staleCase(S3FaultProxy proxy, S3TestBucket bucket, Map<String, String> s3a,
      Path cacheDir, Path warmUp, Path work, int size, String relative, ReadTable table, List<String> failures) {
    List<ReadRun> scratch = new ArrayList<>();
    ReadRun before = measure(proxy, s3a, cacheDir, warmUp, work, size, 0, ReadContender.CACHE_WARM, table, scratch,
        failures);
    ReadTable next = table.overwriteInPlace(bucket, s3a, relative, SEED + 10);
    ReadRun after = measure(proxy, s3a, cacheDir, warmUp, work, size, 0, ReadContender.CACHE_WARM, next, scratch, failures);
    ReadBenchResults.StaleCheck check = new ReadBenchResults.StaleCheck(size,
        before == null ? table.sums() : before.sums(), next.sums(),
        after == null ? new ReadTable.Sums(Double.NaN, Double.NaN) : after.sums());
    Progress.say(String.format("stale-read case %d MB: after the overwrite the warm read found %s (%s)", size,
        check.after(), check.fresh() ? "the new sums" : "STALE: expected " + check.expected()));
    return check;
  }

  /** Where the local-disk copy of the table of {@code size} MB is ({@link ReadContender#LOCAL_DISK}). */
  private static Path localTable(Path work, int size) {
    return work.resolve("local-table-" + size + "mb");
  }

  private static void copyToLocal(S3TestBucket bucket, ReadTable table, Path local) {
    long t0 = System.nanoTime();
    try {
      table.copyToLocal(bucket, local);
    } catch (IOException e) {
      throw new UncheckedIOException("copying the table to " + local, e);
    }
    Progress.say("table copied to local disk for " + ReadContender.LOCAL_DISK.label() + ": " + local, t0);
  }

  /** Runs one application and records it; null when it failed (the failure recorded). */
  private ReadRun measure(S3FaultProxy proxy, Map<String, String> s3a, Path cacheDir, Path warmUp, Path work,
      int size,
      int round, ReadContender c, ReadTable table, List<ReadRun> runs, List<String> failures) {
    String what = String.format("%d MB, round %d, %s", size, round, c.label());
    List<String> jvmFlags = new ArrayList<>(settings.jvmFlags());
    jvmFlags.add("-Xmx" + settings.heap());
    List<String> cmd = new ArrayList<>(ChildJvms.javaCommand(ReadApplication.class, jvmFlags));
    cmd.add(c.name());
    cmd.add(settings.master());
    cmd.add(c == ReadContender.LOCAL_DISK ? localTable(work, size).toUri().toString() : table.uri());
    cmd.add(warmUp.toUri().toString());
    // Hadoop's FileSystem cache on, as users have it (the test sessions turn it off): each application is a JVM of
    // its own, so no contender's file systems reach another
    Map<String, String> hadoop = new LinkedHashMap<>(BenchFileSystems.cached(s3a));
    hadoop.putAll(c.hadoopOptions(cacheDir.toString()));
    hadoop.forEach((k, v) -> cmd.add(k + "=" + v));
    Path log = work.resolve("logs").resolve(String.format("%dmb-r%d-%s.log", size, round, c.name().toLowerCase(
        java.util.Locale.ROOT)));
    long t0 = System.nanoTime();
    try {
      Files.createDirectories(log.getParent());
      proxy.resetCounts();
      proxy.resetBytes();
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
      Process p = pb.start();
      if (!p.waitFor(APPLICATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("no result after " + APPLICATION_TIMEOUT + "; log " + log);
      }
      long applicationMs = (System.nanoTime() - t0) / 1_000_000;
      Requests requests = Requests.of(proxy.counts());
      long bytes = proxy.bytesToClients();
      if (p.exitValue() != 0) {
        throw new IllegalStateException("exit code " + p.exitValue() + "; log " + log);
      }
      ReadRun r = parse(log, size, round, c, table, applicationMs, requests, bytes);
      if (round > 0) {
        runs.add(r);
      }
      if (!r.correct()) {
        failures.add(what + ": sums " + r.sums() + ", the table's are " + table.sums());
      }
      Progress.say(String.format("%s ... %.2f s (application %.1f s)%s, %,d requests (GET %,d, HEAD %,d), %,d bytes from S3%s", what,
          r.ms() / 1000.0, applicationMs / 1000.0, c.persist() ? String.format(" (fill %.2f s)", r.fillMs() / 1000.0) : "",
          requests.total(), requests.of("GET"), requests.of("HEAD"), bytes, r.correct() ? "" : ", WRONG SUMS"), t0);
      return r;
    } catch (IOException | RuntimeException e) {
      failures.add(what + ": " + e);
      Progress.say(what + " ... FAILED: " + e);
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + what, e);
    }
  }

  private static ReadRun parse(Path log, int size, int round, ReadContender c, ReadTable table, long applicationMs,
      Requests requests, long bytes) throws IOException {
    String line;
    try (Stream<String> lines = Files.lines(log)) {
      line = lines.filter(l -> l.startsWith(ReadApplication.RESULT_PREFIX)).reduce((a, b) -> b).orElseThrow(
          () -> new IllegalStateException("no result line in " + log));
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (String kv : line.substring(ReadApplication.RESULT_PREFIX.length()).trim().split(" ", -1)) {
      int eq = kv.indexOf('=');
      m.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    ReadTable.Sums sums = new ReadTable.Sums(Double.parseDouble(m.get("a")), Double.parseDouble(m.get("b")));
    return new ReadRun(size, c, round, Long.parseLong(m.get("ms")), applicationMs, Long.parseLong(m.get("fill-ms")),
        requests,
        bytes, sums, sums.equals(table.sums()));
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
