package io.objectcommit.checkpoint;

import io.objectcommit.checkpoint.impl.CheckpointFiles;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager;

/**
 * The Structured Streaming checkpoint manager for {@code spark.sql.streaming.checkpointFileManagerClass} on
 * Spark 4.1 and later ({@code org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager}, moved
 * there from {@code ...streaming} by SPARK-52787): the same class name and behaviour as the Spark 3.5/4.0 manager
 * (objectcommit-checkpoint-manager), so that the setting is the same on every line. A shim: everything is done by
 * {@link CheckpointFiles}; only the interface's package differs from the other line's shim.
 *
 * <p>Spark 4.1 wraps the state stores' manager in {@code ChecksumCheckpointFileManager} when
 * {@code spark.sql.streaming.checkpoint.fileChecksum.enabled} is true (its default): each state file then gets a
 * checksum file beside it, written through this manager (docs/user-guide.md says what that costs).
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
