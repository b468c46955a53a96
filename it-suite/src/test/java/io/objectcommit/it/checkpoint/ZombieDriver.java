package io.objectcommit.it.checkpoint;

import io.objectcommit.checkpoint.CheckpointFencedException;
import io.objectcommit.it.SparkSessions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;

/**
 * The old driver of {@link ZombieDriverIT}, in its own JVM: runs the counting query on the checkpoint (taking
 * ownership of it, as every query start does), then, told that a new driver took the checkpoint over, keeps writing
 * into the checkpoint's log and state directories as that driver's query would, until told to stop: each kind of
 * write ({@link #KINDS}) in turn, every 50 ms. Each attempt's outcome is one line of {@code <dir>/attempts}:
 * {@code <kind> fenced <epoch> <newer epoch>}, {@code <kind> written}, {@code <kind> returned-false} (a delete,
 * rename or mkdir that reported doing nothing), or {@code <kind> failed <exception class>}.
 *
 * <p>Arguments: input directory, checkpoint location, handshake directory, then {@code key=value} settings.
 * Handshake: it creates {@code ran} after its query, waits for {@code go}, writes until {@code stop} exists.
 */
public final class ZombieDriver {

  /** The writes a driver and its tasks make in a checkpoint, by kind. */
  static final List<String> KINDS = List.of("create-offset", "create-commit", "create-state-file",
      "overwrite-offset", "delete-commit", "rename-state-file", "mkdir-state-partition");

  /** Names of the files the zombie creates start with this number, beyond any batch the test runs. */
  static final int FIRST = 1000;

  private ZombieDriver() {
  }

  public static void main(String[] args) {
    Map<String, String> conf = new LinkedHashMap<>();
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      conf.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    Path dir = Path.of(args[2]);
    int code = 0;
    try (SparkSession spark = SparkSessions.local("zombie-driver", "local[2]", Map.of(), conf)) {
      SecondDriver.runToEnd(spark, args[0], args[1]);
      Files.createFile(dir.resolve("ran"));
      await(dir.resolve("go"));
      org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(args[1]);
      FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
      for (int n = 0; !Files.exists(dir.resolve("stop")); n++) {
        String kind = KINDS.get(n % KINDS.size());
        String outcome;
        try {
          outcome = write(fs, root, kind, FIRST + n) ? "written" : "returned-false";
        } catch (CheckpointFencedException e) {
          outcome = "fenced " + e.epoch() + " " + e.newerEpoch();
        } catch (IOException | RuntimeException e) {
          e.printStackTrace();
          outcome = "failed " + e.getClass().getName();
        }
        Files.writeString(dir.resolve("attempts"), kind + " " + outcome + "\n", StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Thread.sleep(50);
      }
    } catch (Throwable t) {
      t.printStackTrace();
      code = 1;
    }
    System.exit(code);
  }

  /** One write of {@code kind}; what a delete, rename or mkdir returned, true for a create. */
  private static boolean write(FileSystem fs, org.apache.hadoop.fs.Path root, String kind, int n)
      throws IOException {
    byte[] zombie = ("zombie " + n).getBytes(StandardCharsets.UTF_8);
    switch (kind) {
      case "create-offset" -> put(fs, new org.apache.hadoop.fs.Path(root, "offsets/" + n), zombie, false);
      case "create-commit" -> put(fs, new org.apache.hadoop.fs.Path(root, "commits/" + n), zombie, false);
      case "create-state-file" -> put(fs, new org.apache.hadoop.fs.Path(root, "state/0/0/" + n + ".delta"), zombie,
          false);
      case "overwrite-offset" -> put(fs, new org.apache.hadoop.fs.Path(root, "offsets/0"), zombie, true);
      case "delete-commit" -> {
        return fs.delete(new org.apache.hadoop.fs.Path(root, "commits/0"), false);
      }
      case "rename-state-file" -> {
        return fs.rename(new org.apache.hadoop.fs.Path(root, "state/0/0/1.delta"),
            new org.apache.hadoop.fs.Path(root, "state/0/0/" + n + ".delta"));
      }
      case "mkdir-state-partition" -> {
        return fs.mkdirs(new org.apache.hadoop.fs.Path(root, "state/0/" + n));
      }
      default -> throw new IllegalArgumentException(kind);
    }
    return true;
  }

  private static void put(FileSystem fs, org.apache.hadoop.fs.Path p, byte[] content, boolean overwrite)
      throws IOException {
    try (FSDataOutputStream out = fs.create(p, overwrite)) {
      out.write(content);
    }
  }

  private static void await(Path file) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 600_000;
    while (!Files.exists(file)) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("not told to go on within 10 minutes: " + file);
      }
      Thread.sleep(20);
    }
  }
}
