package io.objectcommit.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.bench.BenchResults;
import io.objectcommit.bench.BenchSettings;
import io.objectcommit.bench.BenchmarkRun;
import io.objectcommit.bench.CheckpointResult;
import io.objectcommit.bench.WriteResult;
import io.objectcommit.bench.WriteShape;
import io.objectcommit.testsupport.NfsLikeMount;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tiny run of the benchmark harness (every contender, 2 small files, 2 shuffle partitions, 1 measured
 * micro-batch, no added latency): every contender produces a result with plausible counts, and the reports are
 * written. Not a benchmark: the numbers of so small a run mean nothing.
 */
@S3IntegrationTest
class BenchmarkHarnessIT {

  @Test
  void everyContenderRunsAndTheReportsAreWritten(S3TestBucket bucket) throws Exception {
    Path out = Path.of("target", "bench-it");
    BenchSettings settings = new BenchSettings("it", 0, "local[2]", List.of(new WriteShape("2 files", 2, 1, 500)),
        List.of(2), 1, out, 0);
    BenchResults r = new BenchmarkRun(settings, bucket.endpoint(), "test").run();

    assertTrue(r.failures().isEmpty(), r.failures().toString());
    assertEquals(6, r.writes().size());
    for (WriteResult w : r.writes()) {
      assertTrue(w.requests().total() > 0 && w.jobMs() > 0 && w.commitMs() >= 0, w.toString());
    }
    // the NFS-like mount contender runs where FUSE is available (CI: yes)
    assertEquals(NfsLikeMount.unavailableReason().isEmpty() ? 6 : 5,
        r.checkpoints().size());
    for (CheckpointResult c : r.checkpoints()) {
      assertTrue(c.filesWritten() > 0, c.toString());
      assertEquals(!c.contender().contains("local-path"), c.requests().total() > 0, c.toString());
    }
    CheckpointResult ours = r.checkpoints().stream().filter(c -> c.contender().equals(
        "objectcommit ckpt:// S3 backend")).findFirst().orElseThrow();
    assertEquals(ours.filesWritten(), ours.requests().of("PUT"), "one PUT per new checkpoint file (small files are"
        + " kept in their directory's manifest): " + ours);
    for (String f : List.of("bench.md", "bench.json", "bench.svg")) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
  }
}
