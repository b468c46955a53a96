package io.objectcommit.checkpoint;

import io.objectcommit.checkpoint.impl.CheckpointFiles;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import $[spark.checkpoint.package].CheckpointFileManager;

/**
 * The Structured Streaming checkpoint manager for {@code spark.sql.streaming.checkpointFileManagerClass}, built for
 * the interface {@code $[spark.checkpoint.package].CheckpointFileManager} ($[spark.checkpoint.lines]). Spark 4.1
 * moved the interface from {@code org.apache.spark.sql.execution.streaming} to its {@code checkpointing}
 * subpackage (SPARK-52787); this one source is compiled once per interface package (objectcommit-checkpoint-manager
 * for Spark 3.5 and 4.0, objectcommit-checkpoint-manager-4.1 for 4.1+: the build fills in the package), so that the
 * class and the setting are the same on every line. A shim: everything is done by {@link CheckpointFiles}.
 *
 * <p>{@code createAtomic} writes directly to the final path, with no temporary file and no rename; the file appears
 * whole when the stream is closed; with {@code overwriteIfPossible=false} the close fails with
 * {@code FileAlreadyExistsException} if the file exists (how Spark detects two queries on one checkpoint);
 * {@code cancel()} leaves nothing visible. On {@code ckpt://} paths it uses the checkpoint FileSystem directly; on
 * other file systems it falls back to their own create (atomic only where theirs is).
 */
public class CheckpointFileManagerImpl implements CheckpointFileManager {

  private final CheckpointFiles files;

  public CheckpointFileManagerImpl(Path path, Configuration conf) throws IOException {
    this.files = new CheckpointFiles(path, conf);
  }

  @Override
  public CancellableFSDataOutputStream createAtomic(Path path, boolean overwriteIfPossible) {
    try {
      return new Cancellable(files.createAtomic(path, overwriteIfPossible));
    } catch (IOException e) {
      throw CheckpointFiles.rethrow(e);
    }
  }

  /** Delegates to the FileSystem's stream; cancel abandons it. */
  private static final class Cancellable extends CancellableFSDataOutputStream {
    private final FSDataOutputStream out;

    Cancellable(FSDataOutputStream out) {
      super(out);
      this.out = out;
    }

    @Override
    public void cancel() {
      try {
        CheckpointFiles.cancel(out);
      } catch (IOException e) {
        throw CheckpointFiles.rethrow(e);
      }
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }

  @Override
  public FSDataInputStream open(Path path) {
    try {
      return files.open(path);
    } catch (IOException e) {
      throw CheckpointFiles.rethrow(e);
    }
  }

  @Override
  public FileStatus[] list(Path path, PathFilter filter) {
    try {
      return files.list(path, filter);
    } catch (IOException e) {
      throw CheckpointFiles.rethrow(e);
    }
  }

  @Override
  public void mkdirs(Path path) {
    try {
      files.mkdirs(path);
    } catch (IOException e) {
      throw CheckpointFiles.rethrow(e);
    }
  }

  @Override
  public boolean exists(Path path) {
    try {
      return files.exists(path);
    } catch (IOException e) {
      throw CheckpointFiles.rethrow(e);
    }
  }

  @Override
  public void delete(Path path) {
    try {
      files.delete(path);
    } catch (IOException e) {
      throw CheckpointFiles.rethrow(e);
    }
  }

  @Override
  public boolean isLocal() {
    return files.isLocal();
  }

  @Override
  public Path createCheckpointDirectory() {
    try {
      return files.createCheckpointDirectory();
    } catch (IOException e) {
      throw CheckpointFiles.rethrow(e);
    }
  }

  @Override
  public String toString() {
    return "CheckpointFileManagerImpl{" + files + "}";
  }
}
