package io.objectcommit.bench.codecs;

import io.objectcommit.bench.Json;
import io.objectcommit.bench.Progress;
import io.objectcommit.bench.codecs.CodecBenchSettings.Location;
import io.objectcommit.codecs.GzipIndexes;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import io.objectcommit.testsupport.proxy.S3FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seed 004's table as a benchmark (issue 30): the same text in every format, on S3 (LocalStack behind the proxy's
 * latency and per-connection bandwidth) and on local disk, each counted by Spark {@code runs} times, round-robin
 * over locations and formats; in each round, one single-stream decompression of each compressed file the targets
 * compare against. Then {@code codec-bench.md} and {@code codec-bench.json} in the output directory. A count that
 * fails or is wrong is reported and the run goes on (the results then carry the failure).
 */
public final class CodecBenchmark {

  private static final Logger LOG = LoggerFactory.getLogger(CodecBenchmark.class);

  private final CodecBenchSettings settings;
  private final S3Endpoint upstream;
  private final String machine;

  /**
   * @param settings what to run
   * @param upstream the S3 endpoint (LocalStack) the proxy forwards to
   * @param machine how the report describes the machine and endpoint
   */
  public CodecBenchmark(CodecBenchSettings settings, S3Endpoint upstream, String machine) {
    this.settings = settings;
    this.upstream = upstream;
    this.machine = machine;
  }

  /** Runs everything, writes the reports and returns the results. */
  public CodecBenchResults run() throws IOException {
    String date = ZonedDateTime.now(java.time.ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    settings.formats().forEach(TextFormat::requireCodecs);
    String loadAtStart = loadAverage();
    Progress.say("codec benchmark: " + settings.describe() + "; load average " + loadAtStart);
    BenchFiles.Corpus corpus = BenchFiles.prepare(settings.cacheDir(), settings.textBytes(),
        settings.gzipIndexSpacing(), settings.formats());
    List<Measurement> measurements = new ArrayList<>();
    Map<String, List<Long>> singleStream = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    try (S3TestBucket bucket = S3TestBucket.create(upstream, "codec-bench", null);
        S3FaultProxy proxy = S3FaultProxy.start(upstream)) {
      if (settings.locations().contains(Location.S3)) {
        upload(corpus, bucket);
      }
      proxy.setFaults(FaultPlan.builder(30).latency(Duration.ofMillis(settings.latencyMs()),
          Duration.ofMillis(settings.jitterMs())).bandwidthPerConnection(settings.bandwidthBytesPerSecond()).build());
      LineCount counter = new LineCount(settings.master(), proxy);
      for (int run = 1; run <= settings.runs(); run++) {
        singleStreams(corpus, singleStream);
        for (Location location : settings.locations()) {
          for (TextFormat f : settings.formats()) {
            String path = location == Location.S3 ? bucket.s3a(f.fileName())
                : corpus.file(f).toAbsolutePath().toUri().toString();
            String what = String.format("run %d, %s, %s", run, location.label(), f.label());
            try {
              Measurement m = counter.count(f, location, path, corpus.lines(), run);
              measurements.add(m);
              Progress.say(String.format("%s: %d partitions, %.1f s, task CPU %.1f s, %,d bytes from S3", what,
                  m.partitions(), m.wallMs() / 1000.0, m.taskCpuNs() / 1e9, m.bytesFromS3()));
            } catch (RuntimeException e) {
              LOG.error("{} failed", what, e);
              failures.add(what + ": " + e);
              Progress.say(what + " ... FAILED: " + e);
            }
          }
        }
      }
    } finally {
      FileSystem.closeAll();
    }
    Map<String, Long> sizes = new LinkedHashMap<>(corpus.sizes());
    CodecBenchResults results = new CodecBenchResults(settings, date, machine, loadAtStart, loadAverage(),
        corpus.lines(), corpus.textBytes(), sizes, measurements, singleStream, failures);
    write(settings.outputDir(), results);
    return results;
  }

  /** One single-stream decompression of each compressed file a selected format has a yardstick for. */
  private void singleStreams(BenchFiles.Corpus corpus, Map<String, List<Long>> into) throws IOException {
    Set<TextFormat> byFile = new LinkedHashSet<>();
    Set<String> seen = new java.util.HashSet<>();
    for (TextFormat f : settings.formats()) {
      if (f.baseline() != null && seen.add(f.fileName())) {
        byFile.add(f);
      }
    }
    for (TextFormat f : byFile) {
      SingleStream.Cost c = SingleStream.decompress(corpus.file(f), f.baseline(), corpus.textBytes());
      into.computeIfAbsent(f.fileName(), k -> new ArrayList<>()).add(c.cpuNs());
      Progress.say(String.format("single-stream decompression of %s: %.2f s CPU", f.fileName(), c.cpuNs() / 1e9));
    }
  }

  /**
   * Uploads each file straight to the endpoint (not through the proxy), and writes the gzip index of the
   * {@code .gz} object beside it from the object (it names the object's ETag).
   */
  private void upload(BenchFiles.Corpus corpus, S3TestBucket bucket) throws IOException {
    Map<String, String> direct = new HashMap<>(bucket.s3aOptions());
    direct.put("fs.s3a.impl.disable.cache", "true");
    Configuration conf = new Configuration();
    direct.forEach(conf::set);
    Set<String> names = new LinkedHashSet<>();
    settings.formats().forEach(f -> names.add(f.fileName()));
    try (FileSystem fs = FileSystem.newInstance(URI.create(bucket.s3a("")), conf)) {
      for (String name : names) {
        long t0 = System.nanoTime();
        org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(bucket.s3a(name));
        fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(corpus.dir().resolve(name).toUri()),
            target);
        long len = fs.getFileStatus(target).getLen();
        if (len != Files.size(corpus.dir().resolve(name))) {
          throw new IOException(target + " has " + len + " bytes after the upload");
        }
        Progress.say(String.format("uploaded %s (%,d bytes) in %.0f s", name, len, (System.nanoTime() - t0) / 1e9));
      }
    }
    if (settings.formats().contains(TextFormat.INDEXED_GZIP)) {
      long t0 = System.nanoTime();
      org.apache.hadoop.fs.Path gz = new org.apache.hadoop.fs.Path(bucket.s3a(TextFormat.INDEXED_GZIP.fileName()));
      BenchFiles.writeIndex(gz, settings.gzipIndexSpacing(), direct);
      Progress.say(String.format("gzip index of %s written in %.0f s (%s)", gz, (System.nanoTime() - t0) / 1e9,
          GzipIndexes.indexPath(gz).getName()));
    }
  }

  static void write(Path out, CodecBenchResults results) {
    try {
      Files.createDirectories(out);
      Files.writeString(out.resolve("codec-bench.md"), CodecReport.render(results));
      Files.writeString(out.resolve("codec-bench.json"), Json.write(CodecReport.toJson(results)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the codec benchmark's reports to " + out, e);
    }
    Progress.say("reports: " + out.toAbsolutePath().resolve("codec-bench.md") + ", codec-bench.json");
  }

  /** The 1, 5 and 15 minute load averages, or "unknown" off Linux. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + ", " + f[1] + ", " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
