package io.objectcommit.bench.codecs;

import io.objectcommit.bench.codecs.CodecBenchSettings.Location;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's results: every measurement, the single-stream decompressions, the files' sizes, and the failures.
 *
 * @param settings what was run
 * @param date when it started (ISO-8601)
 * @param machine cores, Java, Spark, endpoint
 * @param loadAtStart {@code /proc/loadavg} at the start
 * @param loadAtEnd {@code /proc/loadavg} at the end
 * @param lines lines of the text
 * @param textBytes bytes of the text
 * @param sizes bytes of each file by name
 * @param measurements every count, in run order
 * @param singleStream single-stream decompression CPU by file name, one per round
 * @param failures what failed (a wrong count, an exception), in run order
 */
public record CodecBenchResults(CodecBenchSettings settings, String date, String machine, String loadAtStart,
    String loadAtEnd, long lines, long textBytes, Map<String, Long> sizes, List<Measurement> measurements,
    Map<String, List<Long>> singleStream, List<String> failures) {

  public CodecBenchResults {
    sizes = Map.copyOf(sizes);
    measurements = List.copyOf(measurements);
    singleStream = Map.copyOf(singleStream);
    failures = List.copyOf(failures);
  }

  /** The measurements of one format at one location. */
  public List<Measurement> of(TextFormat f, Location l) {
    return measurements.stream().filter(m -> m.format() == f && m.location() == l).toList();
  }

  /** The single-stream decompression CPU of a format's file (seconds), if it has a yardstick. */
  Optional<Spread> singleStreamSeconds(TextFormat f) {
    List<Long> ns = f.baseline() == null ? null : singleStream.get(f.fileName());
    return ns == null || ns.isEmpty() ? Optional.empty() : Optional.of(Spread.of(ns).div(1e9));
  }

  /** The compressed size of a format's file (the index not included). */
  long compressedSize(TextFormat f) {
    return sizes.get(f.fileName());
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("date", date);
    m.put("machine", machine);
    m.put("load_at_start", loadAtStart);
    m.put("load_at_end", loadAtEnd);
    m.put("settings", settings.describe());
    m.put("text_lines", lines);
    m.put("text_bytes", textBytes);
    m.put("file_bytes", new LinkedHashMap<>(new java.util.TreeMap<>(sizes)));
    Map<String, Object> single = new LinkedHashMap<>();
    singleStream.forEach((k, v) -> single.put(k, v.stream().map(ns -> ns / 1_000_000).toList()));
    m.put("single_stream_cpu_ms", single);
    List<Object> ms = new ArrayList<>();
    measurements.forEach(x -> ms.add(x.toMap()));
    m.put("measurements", ms);
    m.put("failures", failures);
    return m;
  }
}
