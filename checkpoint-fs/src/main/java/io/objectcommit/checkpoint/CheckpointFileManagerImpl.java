package io.objectcommit.checkpoint;

import io.objectcommit.checkpoint.impl.Backend;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.spark.sql.execution.streaming.CheckpointFileManager;

/**
 * A Structured Streaming {@link CheckpointFileManager} for {@code spark.sql.streaming.checkpointFileManagerClass}:
 * {@code createAtomic} writes directly to the final path, with no temporary file and no rename; the file appears
 * whole when the stream is closed; with {@code overwriteIfPossible=false} the close fails with
 * {@code FileAlreadyExistsException} if the file exists (how Spark detects two queries on one checkpoint);
 * {@code cancel()} leaves nothing visible. On {@code ckpt://} paths it uses the checkpoint FileSystem directly; on
 * other file systems it falls back to their own create (atomic only where theirs is).
 */
public class CheckpointFileManagerImpl implements CheckpointFileManager {

  private final Path root;
  private final FileSystem fs;

  public CheckpointFileManagerImpl(Path path, Configuration conf) throws IOException {
    this.root = path;
    this.fs = path.getFileSystem(conf);
  }

  @Override
  public CancellableFSDataOutputStream createAtomic(Path path, boolean overwriteIfPossible) {
    try {
      FSDataOutputStream out = fs.create(path, overwriteIfPossible);
      return new Cancellable(out);
    } catch (IOException e) {
      throw rethrow(e);
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
        if (out.getWrappedStream() instanceof Backend.Cancellable) {
          ((Backend.Cancellable) out.getWrappedStream()).cancel();
        } else {
          out.close(); // not ours: the best we can do
        }
      } catch (IOException e) {
        throw rethrow(e);
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
      return fs.open(path);
    } catch (IOException e) {
      throw rethrow(e);
    }
  }

  @Override
  public FileStatus[] list(Path path, PathFilter filter) {
    try {
      return Arrays.stream(fs.listStatus(path)).filter(s -> filter.accept(s.getPath())).toArray(FileStatus[]::new);
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    } catch (IOException e) {
      throw rethrow(e);
    }
  }

  @Override
  public void mkdirs(Path path) {
    try {
      fs.mkdirs(path);
    } catch (IOException e) {
      throw rethrow(e);
    }
  }

  @Override
  public boolean exists(Path path) {
    try {
      fs.getFileStatus(path);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw rethrow(e);
    }
  }

  @Override
  public void delete(Path path) {
    try {
      fs.delete(path, true);
    } catch (FileNotFoundException e) {
      // already gone: Spark's managers ignore this too
    } catch (IOException e) {
      throw rethrow(e);
    }
  }

  @Override
  public boolean isLocal() {
    return "file".equals(fs.getScheme());
  }

  @Override
  public Path createCheckpointDirectory() {
    try {
      Path qualified = fs.makeQualified(root);
      fs.mkdirs(qualified);
      return qualified;
    } catch (IOException e) {
      throw rethrow(e);
    }
  }

  @Override
  public String toString() {
    return "CheckpointFileManagerImpl{" + root + ", " + fs + "}";
  }

  /**
   * Spark's callers catch the checked exceptions of the Hadoop API ({@code FileNotFoundException} from
   * {@code open}, {@code FileAlreadyExistsException} from {@code createAtomic}), which a Scala trait may throw
   * undeclared. A Java implementation must throw them unchanged, not wrapped: this rethrows a checked exception
   * without declaring it.
   */
  static RuntimeException rethrow(Throwable t) {
    CheckpointFileManagerImpl.<RuntimeException>throwAs(t);
    throw new AssertionError("unreachable");
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void throwAs(Throwable t) throws T {
    throw (T) t;
  }
}
