package io.objectcommit.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.bench.ReadBenchResults;
import io.objectcommit.bench.ReadBenchSettings;
import io.objectcommit.bench.ReadCacheBenchmark;
import io.objectcommit.bench.ReadContender;
import io.objectcommit.bench.ReadRun;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestJvmFlags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tiny run of the read-cache benchmark (one 8 MB table, one round, the proxy adding nothing, the applications' JVMs
 * with the test JVMs' JIT and GC flags): every contender the
 * line's Hadoop has runs as an application of its own and reads the table's sums, the warm read of the cache sends
 * no GET, the stale-read case finds the overwritten table's sums, and the reports are written. Not a benchmark: the
 * times of so small a run mean nothing (docs/benchmarks.md has the full run).
 */
@S3IntegrationTest
class ReadCacheBenchmarkIT {

  @Test
  void everyContenderReadsTheSumsAndTheReportsAreWritten(S3TestBucket bucket) throws Exception {
    Path out = Path.of("target", "readcache-bench-it");
    ReadBenchSettings settings = new ReadBenchSettings(List.of(8), 1, 0, 0, 0, "local[2]", "1g",
        TestJvmFlags.FLAGS, ReadContender.roundOrder(), out);
    ReadBenchResults r = new ReadCacheBenchmark(settings, bucket.endpoint(), "test").run();

    assertTrue(r.failures().isEmpty(), r.failures().toString());
    assertEquals(ReadContender.roundOrder().size() - r.unavailable().size(), r.runs().size(), r.runs().toString());
    for (ReadRun run : r.runs()) {
      assertTrue(run.correct() && run.ms() > 0, run.toString());
    }
    ReadRun cold = find(r, ReadContender.CACHE_COLD);
    ReadRun warm = find(r, ReadContender.CACHE_WARM);
    assertTrue(cold.requests().of("GET") > 0, cold.toString());
    assertEquals(0, warm.requests().of("GET"), "the warm application reads every byte from the cache: " + warm);
    assertTrue(warm.bytesFromS3() < cold.bytesFromS3() / 10, warm + " against " + cold);
    assertEquals(1, r.staleChecks().size());
    assertTrue(r.staleChecks().get(0).fresh(), r.staleChecks().toString());
    for (String f : List.of("readcache.md", "readcache.json", "readcache.svg")) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
  }

  private static ReadRun find(ReadBenchResults r, ReadContender c) {
    return r.runs().stream().filter(x -> x.contender() == c).findFirst().orElseThrow();
  }
}
