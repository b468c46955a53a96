package io.objectcommit.it.nfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.streaming.CheckpointFileManager;
import org.apache.spark.sql.execution.streaming.CheckpointFileManager$;
import org.apache.spark.sql.execution.streaming.CommitLog;
import org.apache.spark.sql.execution.streaming.CommitMetadata;

/**
 * What {@link CrossClientCheckpointIT} does with Spark 3.5's {@code CheckpointFileManager} (the interface's package
 * before Spark 4.1): state files written and loaded as HDFSBackedStateStoreProvider does. Kept out of the test class so
 * that its method signatures name no Spark-internal type: the test jar's classes are discovered on every Spark line
 * (JUnit reads each test class's methods before its tags leave it out), this one only where it runs.
 */
final class SparkStateFiles {

  private SparkStateFiles() {
  }

  static CheckpointFileManager manager(SparkSession spark, String path) {
    return CheckpointFileManager$.MODULE$.create(new Path(path),
        spark.sessionState().newHadoopConf());
  }

  /** The commit log's serialization of {@code m} into an atomic create of {@code path} (no overwrite), as a driver's. */
  static void writeCommit(CommitLog log, CheckpointFileManager fm, Path path, CommitMetadata m)
      throws IOException {
    CheckpointFileManager.CancellableFSDataOutputStream out = fm.createAtomic(path, false);
    log.serialize(m, out);
    out.close();
  }

  static void write(CheckpointFileManager fm, String path, long value) throws IOException {
    try (CheckpointFileManager.CancellableFSDataOutputStream out = fm.createAtomic(
        new Path(path), true)) {
      out.write(Long.toString(value).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** A long read from {@code path}, or null when it does not exist. */
  static Long read(CheckpointFileManager fm, String path) throws IOException {
    try (InputStream in = fm.open(new Path(path))) {
      return Long.parseLong(new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
    } catch (FileNotFoundException missing) {
      return null;
    }
  }

  /** HDFSBackedStateStoreProvider.loadMap's order: the newest snapshot at or below the version, then deltas. */
  static long load(CheckpointFileManager fm, String dir, int version) throws IOException {
    int v = version;
    long total = 0;
    for (; v > 0; v--) {
      Long snapshot = read(fm, dir + v + ".snapshot");
      if (snapshot != null) {
        total = snapshot;
        break;
      }
    }
    for (int d = v + 1; d <= version; d++) {
      Long delta = read(fm, dir + d + ".delta");
      if (delta == null) {
        throw new IllegalStateException("Error reading delta file " + dir + d + ".delta: it does not exist");
      }
      total += delta;
    }
    return total;
  }
}
