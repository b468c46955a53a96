package io.objectcommit.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.bench.codecs.CodecBenchResults;
import io.objectcommit.bench.codecs.CodecBenchSettings;
import io.objectcommit.bench.codecs.CodecBenchSettings.Location;
import io.objectcommit.bench.codecs.CodecBenchmark;
import io.objectcommit.bench.codecs.Measurement;
import io.objectcommit.bench.codecs.TextFormat;
import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tiny run of the compressed-text benchmark (4 MB of text, one run, no added latency or bandwidth limit): every
 * format on S3 and local disk counts every line, the splittable formats in more than one partition and plain gzip in
 * one, the proxy counts bytes only on S3 (at least the file's), and the reports are written. Not a benchmark: so small a run's numbers mean
 * nothing.
 */
@S3IntegrationTest
class CodecBenchmarkHarnessIT {

  @Test
  void everyFormatCountsEveryLineAndTheReportsAreWritten(S3TestBucket bucket) throws Exception {
    Path out = Path.of("target", "codec-bench-it");
    CodecBenchSettings settings = CodecBenchSettings.parse(List.of("size-mb=4", "runs=1", "latency-ms=0",
        "jitter-ms=0", "bandwidth-mbps=0", "gzip-index-spacing=" + CodecConstants.GZIP_INDEX_MIN_SPACING,
        "out=" + out, "cache=" + Path.of("target", "codec-bench-it-files")));
    CodecBenchResults r = new CodecBenchmark(settings, bucket.endpoint(), "test").run();

    assertTrue(r.failures().isEmpty(), r.failures().toString());
    assertEquals(TextFormat.values().length * 2, r.measurements().size());
    assertTrue(r.textBytes() >= 4_000_000 && r.lines() > 30_000, r.lines() + " lines, " + r.textBytes() + " bytes");
    for (Measurement m : r.measurements()) {
      assertEquals(r.lines(), m.lines(), m.toString());
      assertEquals(m.format() == TextFormat.GZIP, m.partitions() == 1, "one partition for plain gzip only: " + m);
      assertTrue(m.taskCpuNs() > 0 && m.wallMs() > 0, m.toString());
      assertEquals(m.location() == Location.S3, m.bytesFromS3() > 0, "bytes counted on S3 only: " + m);
    }
    for (TextFormat f : TextFormat.values()) {
      // every byte of the file at least once (how much more is the full run's question: on so small a file the
      // bytes in flight when S3A closes a stream weigh much)
      long size = r.sizes().get(f.fileName());
      long read = r.of(f, Location.S3).get(0).bytesFromS3();
      assertTrue(read >= size, f + ": " + read + " bytes read of " + size);
    }
    assertEquals(3, r.singleStream().size(), "one yardstick per compressed file with a target: " + r.singleStream());
    for (String f : List.of("codec-bench.md", "codec-bench.json")) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    assertTrue(Files.readString(out.resolve("codec-bench.md")).contains("bytes read <= 1.05x the compressed size"));
  }
}
