package io.objectcommit.it.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointFencing;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zombie driver (issue 28, must-have 1) on the S3 backend: driver A, in its own JVM, runs the counting query on a
 * checkpoint and then keeps writing into the checkpoint's offset, commit and state directories, every kind of write
 * a driver and its tasks make, while driver B (this JVM) starts the same query on the checkpoint and runs four
 * micro-batches. B's start takes ownership of the checkpoint: every write of A from then on fails with
 * {@code CheckpointFencedException} naming both epochs, none of them is visible in the store, B's files are as B
 * wrote them, and B's counts, and a third run's after it, are exact. (The local-path backend cannot fence: the reason
 * is in docs/checkpoint-format.md#fencing; {@link ConcurrentQueriesIT} shows what Spark detects there.)
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class ZombieDriverIT {

  @Test
  void aZombieDriverKeepsWritingAndNoneOfItsWritesIsVisible(S3TestBucket bucket, @TempDir Path input,
      @TempDir Path handshake) throws Exception {
    CheckpointContender contender = ObjectCommitCheckpoints.s3();
    StreamInput in = new StreamInput(input);
    try (ProxiedBucket proxied = new ProxiedBucket(bucket);
        SparkSession spark = SparkSessions.local("zombie-b", "local[2]", proxied.s3aOptions(),
            contender.sparkConf())) {
      String checkpoint = contender.location(proxied, "zombie/checkpoint");
      in.addFile(0);
      in.addFile(1);
      Process a = zombie(input, checkpoint, handshake, proxied.s3aOptions(), contender.sparkConf());
      try {
        awaitFile(handshake.resolve("ran"), a);
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(checkpoint);
        FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
        byte[] offset0 = read(fs, new org.apache.hadoop.fs.Path(root, "offsets/0"));
        byte[] state1 = read(fs, new org.apache.hadoop.fs.Path(root, "state/0/0/1.delta"));

        CountingQuery.clear();
        StreamingQuery b = CountingQuery.start(spark, input, checkpoint);
        assertEquals(2, CheckpointFencing.epoch(fs, root), "driver B took the checkpoint over from A (epoch 1)");
        Files.createFile(handshake.resolve("go"));
        for (int i = 2; i < 6; i++) {
          in.addFile(i);
          b.processAllAvailable();
        }
        awaitAttempts(handshake.resolve("attempts"), 2 * ZombieDriver.KINDS.size(), a);
        b.stop();
        Files.createFile(handshake.resolve("stop"));
        assertTrue(a.waitFor(120, TimeUnit.SECONDS), "driver A stopped when told");
        assertEquals(0, a.exitValue(), "driver A ran:\n" + Files.readString(handshake.resolve("zombie.out")));

        Map<String, Integer> fenced = new TreeMap<>();
        List<String> other = new ArrayList<>();
        for (String line : Files.readAllLines(handshake.resolve("attempts"))) {
          List<String> f = List.of(line.split(" ", -1));
          if (f.size() == 4 && "fenced".equals(f.get(1)) && "1".equals(f.get(2)) && "2".equals(f.get(3))) {
            fenced.merge(f.get(0), 1, Integer::sum);
          } else {
            other.add(line);
          }
        }
        assertEquals(List.of(), other, "every write of driver A is refused as fenced (epoch 1 behind epoch 2)");
        assertEquals(new TreeSet<>(ZombieDriver.KINDS), fenced.keySet(),
            "each kind of write was tried and refused: " + fenced);

        for (String dir : List.of("offsets", "commits", "state/0", "state/0/0", "state/0/1")) {
          for (FileStatus s : fs.listStatus(new org.apache.hadoop.fs.Path(root, dir))) {
            String name = s.getPath().getName();
            assertTrue(!name.matches("\\d+(\\.delta)?") || Integer.parseInt(name.replace(".delta", ""))
                < ZombieDriver.FIRST, "a zombie's write is visible: " + s.getPath());
          }
        }
        assertArrayEquals(offset0, read(fs, new org.apache.hadoop.fs.Path(root, "offsets/0")),
            "offsets/0 is as it was");
        assertArrayEquals(state1, read(fs, new org.apache.hadoop.fs.Path(root, "state/0/0/1.delta")),
            "state/0/0/1.delta is where it was, as it was");
        assertTrue(fs.exists(new org.apache.hadoop.fs.Path(root, "commits/0")), "commits/0 is still there");
        assertEquals(StreamInput.expectedCounts(6), CountingQuery.lastCounts(), "driver B's counts are exact");

        CountingQuery.clear();
        in.addFile(6);
        StreamingQuery c = CountingQuery.start(spark, input, checkpoint);
        c.processAllAvailable();
        c.stop();
        assertEquals(StreamInput.expectedCounts(7), CountingQuery.lastCounts(), "a later run's counts are exact");
      } finally {
        a.destroyForcibly();
      }
    }
  }

  private static Process zombie(Path input, String checkpoint, Path dir, Map<String, String> s3a,
      Map<String, String> sparkConf) throws IOException {
    return ChildJvms.sparkDriver(ZombieDriver.class, List.of(input.toString(), checkpoint, dir.toString()), s3a,
        sparkConf, dir.resolve("zombie.out"));
  }

  private static void awaitFile(Path file, Process a) throws Exception {
    long deadline = System.currentTimeMillis() + 300_000;
    while (!Files.exists(file)) {
      assertTrue(a.isAlive(), "driver A ended early:\n" + Files.readString(file.resolveSibling("zombie.out")));
      assertTrue(System.currentTimeMillis() < deadline, "driver A did not run its query within 5 minutes");
      Thread.sleep(100);
    }
  }

  private static void awaitAttempts(Path attempts, int atLeast, Process a) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (!Files.exists(attempts) || Files.readAllLines(attempts).size() < atLeast) {
      assertTrue(a.isAlive(), "driver A ended early");
      assertTrue(System.currentTimeMillis() < deadline, "driver A did not try " + atLeast + " writes in 2 minutes");
      Thread.sleep(100);
    }
  }

  private static byte[] read(FileSystem fs, org.apache.hadoop.fs.Path p) throws IOException {
    try (FSDataInputStream s = fs.open(p)) {
      return s.readAllBytes();
    }
  }
}
