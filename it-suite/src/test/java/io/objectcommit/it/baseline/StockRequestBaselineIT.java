package io.objectcommit.it.baseline;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SmokeJob;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CommitterContender;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StockCommitters;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.SparkCompat;
import io.objectcommit.testsupport.proxy.RequestCounts;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The baseline request counts of docs/benchmarks.md: requests by operation, counted by the proxy (no faults),
 * for each stock committer writing the same Parquet table, and for a stock s3a:// streaming checkpoint. Prints a
 * Markdown table and writes it to {@code it-tests/target/request-baseline.md}. The asserted counts are the ones
 * that follow from each protocol (renames, uploads) and do not depend on timing.
 */
@S3IntegrationTest
class StockRequestBaselineIT {

  private static final long ROWS = 20_000;
  private static final int FILES = 4;
  private static final int MEASURED_BATCHES = 5;
  private static final S3Operation[] COLUMNS = {S3Operation.PUT, S3Operation.GET, S3Operation.HEAD,
      S3Operation.LIST, S3Operation.COPY, S3Operation.DELETE, S3Operation.BULK_DELETE,
      S3Operation.MULTIPART_INITIATE, S3Operation.MULTIPART_PART, S3Operation.MULTIPART_COMPLETE};

  private final List<String> rows = new ArrayList<>();

  private static String cells(RequestCounts c, double divisor) {
    StringBuilder sb = new StringBuilder();
    for (S3Operation op : COLUMNS) {
      long n = c.of(op);
      String v = divisor == 1 ? Long.toString(n) : String.format("%.1f", n / divisor);
      if (op == S3Operation.HEAD || op == S3Operation.GET) {
        long missing = c.of(op, 404);
        v += missing == 0 ? "" : divisor == 1 ? " (" + missing + " 404)" : String.format(" (%.1f 404)", missing / divisor);
      }
      sb.append(" | ").append(v);
    }
    return sb.toString();
  }

  private RequestCounts write(S3TestBucket bucket, CommitterContender committer, String rel) throws IOException {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("baseline", "local[2]", proxied.s3aOptions(),
            committer.sparkConf())) {
      String table = bucket.s3a(rel);
      proxied.proxy().resetCounts();
      SmokeJob.write(spark, table, ROWS, FILES);
      RequestCounts c = proxied.proxy().counts();
      assertEquals(SmokeJob.expected(ROWS), SmokeJob.read(spark, table), committer.name());
      rows.add("| " + committer.name() + " | " + c.total() + cells(c, 1) + " |");
      return c;
    }
  }

  @Test
  void stockCommittersAndCheckpoint(S3TestBucket bucket, @TempDir Path input) throws Exception {
    RequestCounts v1 = write(bucket, StockCommitters.fileOutputCommitterV1(), "v1");
    RequestCounts v2 = write(bucket, StockCommitters.fileOutputCommitterV2(), "v2");
    RequestCounts dir = write(bucket, StockCommitters.s3aDirectory(), "directory");
    RequestCounts magic = write(bucket, StockCommitters.s3aMagic(), "magic");
    assertEquals(2 * FILES, v1.of(S3Operation.COPY), "v1: task commit and job commit each rename every file");
    assertEquals(FILES, v2.of(S3Operation.COPY), "v2: task commit renames every file into place once");
    assertEquals(0, dir.of(S3Operation.COPY), "directory: no renames");
    assertEquals(FILES, dir.of(S3Operation.MULTIPART_COMPLETE), "directory: one upload completed per file");
    assertEquals(FILES, magic.of(S3Operation.MULTIPART_COMPLETE), "magic: one upload completed per file");

    String checkpointRow = checkpoint(bucket, input);
    StringBuilder md = new StringBuilder();
    md.append("Parquet write of ").append(String.format("%,d", ROWS)).append(" rows as ").append(FILES)
        .append(" files (Spark local[2]), requests by operation:\n\n");
    md.append("| committer | total");
    for (S3Operation op : COLUMNS) {
      md.append(" | ").append(op);
    }
    md.append(" |\n|---|---").append("|---".repeat(COLUMNS.length)).append("|\n");
    rows.forEach(r -> md.append(r).append('\n'));
    md.append("\n").append(checkpointRow);
    Path out = Path.of("target", "request-baseline.md");
    Files.writeString(out, md.toString());
    System.out.println("\n==== request baseline (also in " + out.toAbsolutePath() + ") ====\n" + md);
  }

  private String checkpoint(S3TestBucket bucket, Path input) throws IOException, Exception {
    StreamInput in = new StreamInput(input);
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("baseline-checkpoint", "local[2]", proxied.s3aOptions(),
            Map.of())) {
      StreamingQuery q = SparkCompat.option(spark.readStream().schema("value LONG").option("maxFilesPerTrigger", 1)
          .csv(input.toString()).groupBy(col("value").mod(StreamInput.KEYS).as("k")).count()
          .writeStream().outputMode("complete").format("noop"), "checkpointLocation", bucket.s3a("stream/checkpoint"))
          .start();
      try {
        in.addFile(0);
        q.processAllAvailable();
        int before = bucket.listKeys("stream/checkpoint/").size();
        proxied.proxy().resetCounts();
        for (int i = 1; i <= MEASURED_BATCHES; i++) {
          in.addFile(i);
          q.processAllAvailable();
        }
        RequestCounts c = proxied.proxy().counts();
        int written = bucket.listKeys("stream/checkpoint/").size() - before;
        assertEquals(MEASURED_BATCHES + 1, q.lastProgress().batchId() + 1, "one micro-batch per file");
        assertTrue(written > 0 && c.total() > 0);
        StringBuilder md = new StringBuilder();
        md.append("Stock streaming checkpoint on s3a:// (Spark's default checkpoint manager; file source, count by"
            + " key, complete mode, noop sink, 4 shuffle partitions), micro-batches 1-").append(MEASURED_BATCHES)
            .append(": ").append(written).append(" checkpoint files written, ").append(c.total())
            .append(" requests.\n\n| per | total");
        for (S3Operation op : COLUMNS) {
          md.append(" | ").append(op);
        }
        md.append(" |\n|---|---").append("|---".repeat(COLUMNS.length)).append("|\n");
        md.append(String.format("| micro-batch | %.1f", c.total() / (double) MEASURED_BATCHES))
            .append(cells(c, MEASURED_BATCHES)).append(" |\n");
        md.append(String.format("| checkpoint file written | %.1f", c.total() / (double) written))
            .append(cells(c, written)).append(" |\n");
        return md.toString();
      } finally {
        q.stop();
      }
    }
  }
}
