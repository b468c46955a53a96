package io.objectcommit.it.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.ChildJvms;
import io.objectcommit.it.SparkSessions;
import io.objectcommit.it.faults.CheckpointContender;
import io.objectcommit.it.faults.CountingQuery;
import io.objectcommit.it.faults.ObjectCommitCheckpoints;
import io.objectcommit.it.faults.ProxiedBucket;
import io.objectcommit.it.faults.StreamInput;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two drivers (two JVMs) run one query on one checkpoint. Driver A plans and runs micro-batch 0, then is held in
 * its sink; driver B (a child JVM) starts on the same checkpoint, re-runs batch 0 and commits it. When A goes on,
 * its commit of batch 0 is an exclusive create that the file system refuses, and A stops with Spark's
 * concurrent-use error. On the S3 backend A is held before batch 0's stateful tasks instead, and is fenced: B took
 * ownership of the checkpoint when it started, so A's state files fail with {@code CheckpointFencedException}
 * and none of them is written. Nothing is corrupted: a later run recovers
 * exact counts.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class ConcurrentQueriesIT {

  private static volatile CountDownLatch inSink;
  private static volatile CountDownLatch release;

  @ParameterizedTest(name = "{0} backend")
  @ValueSource(strings = {"s3", "local"})
  void theSecondDriverWinsTheFirstFailsAndNothingIsCorrupted(String backend, S3TestBucket bucket,
      @TempDir Path input, @TempDir Path efs) throws Exception {
    CheckpointContender contender = "s3".equals(backend) ? ObjectCommitCheckpoints.s3()
        : ObjectCommitCheckpoints.local(efs);
    StreamInput in = new StreamInput(input);
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("concurrent-a", "local[2]", proxied.s3aOptions(),
            contender.sparkConf())) {
      String checkpoint = contender.location(proxied, "concurrent/checkpoint");
      in.addFile(0);
      inSink = new CountDownLatch(1);
      release = new CountDownLatch(1);
      // S3 backend: A is held before batch 0's stateful tasks run, so that it writes state files after B took the
      // checkpoint over; local-path backend (no fencing): after them, as before fencing
      boolean fenced = "s3".equals(backend);
      CountingQuery.AfterBatch hold = id -> {
        if (id == 0) { // hold driver A in its sink, batch 0 not committed
          inSink.countDown();
          release.await(300, TimeUnit.SECONDS);
        }
      };
      StreamingQuery a = fenced ? CountingQuery.start(spark, input, checkpoint, hold, id -> { })
          : CountingQuery.start(spark, input, checkpoint, hold);
      assertTrue(inSink.await(120, TimeUnit.SECONDS), "driver A reached its sink in batch 0");
      org.apache.hadoop.fs.Path location = new org.apache.hadoop.fs.Path(checkpoint);
      org.apache.hadoop.fs.FileSystem fs = location.getFileSystem(spark.sparkContext().hadoopConfiguration());
      if (fenced) {
        assertEquals(1, io.objectcommit.checkpoint.CheckpointFencing.epoch(fs, location),
            "driver A took ownership of the checkpoint when its query started");
      }

      Process b = secondDriver(input, checkpoint, proxied.s3aOptions(), contender.sparkConf(), efs);
      assertTrue(b.waitFor(180, TimeUnit.SECONDS), "driver B finished");
      String bOut = Files.readString(efs.resolve("driver-b.out"));
      assertEquals(0, b.exitValue(), "driver B ran batch 0 and committed it:\n" + bOut);

      release.countDown();
      Throwable failure = null;
      try {
        a.awaitTermination(120_000);
      } catch (Exception e) {
        failure = e;
      }
      a.stop();
      assertNotNull(failure, "driver A fails");
      String message = messages(failure);
      if ("s3".equals(backend)) {
        // fenced: B took ownership of the checkpoint when it started, so A's commit of batch 0 is refused by the
        // store before anything of it is written (docs/checkpoint-format.md#fencing)
        assertTrue(message.contains(".delta refused: checkpoint location ")
            && message.contains("was taken over by owner '") && message.contains("(epoch 2)")
            && message.contains("as owner '") && message.contains("(epoch 1)"), message);
      } else {
        // the local-path backend cannot fence: Spark's concurrent-use errors, the log entry exists when A checks
        // (CONCURRENT_STREAM_LOG_UPDATE), or A's exclusive create of it is refused
        // (multiStreamingQueriesUsingPathConcurrently)
        assertTrue(message.contains("Multiple streaming jobs detected for 0")
            || message.contains("Multiple streaming queries are concurrently using"), message);
      }

      CountingQuery.clear();
      in.addFile(1);
      StreamingQuery c = CountingQuery.start(spark, input, checkpoint);
      c.processAllAvailable();
      c.stop();
      assertEquals(StreamInput.expectedCounts(2), CountingQuery.lastCounts(), "the checkpoint is intact");
    }
  }

  private static Process secondDriver(Path input, String checkpoint, Map<String, String> s3a,
      Map<String, String> sparkConf, Path dir) throws Exception {
    return ChildJvms.sparkDriver(SecondDriver.class, List.of(input.toString(), checkpoint), s3a, sparkConf,
        dir.resolve("driver-b.out"));
  }

  private static String messages(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      b.append(c.getMessage()).append(" | ");
    }
    return b.toString();
  }
}
