package io.objectcommit.checkpoint;

import io.objectcommit.checkpoint.impl.CheckpointFiles;
import io.objectcommit.checkpoint.impl.JvmSparkSide;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager;

/**
 * The Structured Streaming checkpoint manager ({@code spark.sql.streaming.checkpointFileManagerClass}) for Spark 4.1
 * and later, whose interface is {@code org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager}
 * (moved there by SPARK-52787). A shim: the work is done by checkpoint-fs's Spark-free {@link CheckpointFiles}. The
 * same class for Spark 3.5 and 4.0, with the interface's old package, is {@code checkpoint-manager}'s; the two differ
 * in that one import.
 */
public class CheckpointFileManagerImpl implements CheckpointFileManager {

  private final CheckpointFiles files;

  public CheckpointFileManagerImpl(Path path, Configuration conf) throws IOException {
    this.files = new CheckpointFiles(path, conf, JvmSparkSide.get());
  }

  @Override
  public CancellableFSDataOutputStream createAtomic(Path path, boolean overwriteIfPossible) {
    return new Cancellable(io(() -> files.createAtomic(path, overwriteIfPossible)));
  }

  @Override
  public FSDataInputStream open(Path path) {
    return io(() -> files.open(path));
  }

  @Override
  public FileStatus[] list(Path path, PathFilter filter) {
    return io(() -> files.list(path, filter));
  }

  @Override
  public void mkdirs(Path path) {
    io(() -> { files.mkdirs(path); return null; });
  }

  @Override
  public boolean exists(Path path) {
    return io(() -> files.exists(path));
  }

  @Override
  public void delete(Path path) {
    io(() -> { files.delete(path); return null; });
  }

  @Override
  public boolean isLocal() {
    return files.isLocal();
  }

  @Override
  public Path createCheckpointDirectory() {
    return io(files::createCheckpointDirectory);
  }

  @Override
  public String toString() {
    return "CheckpointFileManagerImpl{" + files + "}";
  }

  /** Spark's stream type around {@link CheckpointFiles#createAtomic}'s stream. */
  private static final class Cancellable extends CancellableFSDataOutputStream {
    private final FSDataOutputStream out;

    Cancellable(FSDataOutputStream out) {
      super(out);
      this.out = out;
    }

    @Override
    public void cancel() {
      io(() -> { CheckpointFiles.cancel(out); return null; });
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }

  private interface IoCall<T> {
    T call() throws IOException;
  }

  /** Runs {@code call}; an IOException reaches Spark unchanged (the Scala trait declares none). */
  private static <T> T io(IoCall<T> call) {
    try {
      return call.call();
    } catch (IOException e) {
      throw CheckpointFiles.rethrow(e);
    }
  }
}
