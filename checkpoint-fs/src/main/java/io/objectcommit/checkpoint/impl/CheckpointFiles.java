package io.objectcommit.checkpoint.impl;

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
import org.apache.hadoop.fs.StreamCapabilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything Structured Streaming's checkpoint manager does, with no Spark class in sight: the one implementation
 * behind each Spark line's {@code io.objectcommit.checkpoint.CheckpointFileManagerImpl} (Spark 3.5 and 4.0 name the
 * interface {@code org.apache.spark.sql.execution.streaming.CheckpointFileManager}, Spark 4.1 moved it to
 * {@code ...streaming.checkpointing}; the shims only adapt the types).
 *
 * <p>{@code createAtomic} is the FileSystem's own create, which on {@code ckpt://} is atomic (the file appears
 * whole when the stream is closed; with {@code overwrite=false} the close fails with
 * {@code FileAlreadyExistsException} if the file exists); {@link #cancel} aborts it ({@code Abortable}) and
 * leaves nothing visible. On other file systems it is their create (atomic only where theirs is), and cancel
 * aborts their stream where it is abortable (S3A's), else closes it.
 *
 * <p>Spark's callers catch the checked exceptions of the Hadoop API ({@code FileNotFoundException} from
 * {@code open}, {@code FileAlreadyExistsException} from {@code createAtomic}) from a Scala trait that does not
 * declare them: the shims rethrow them unchanged through {@link #rethrow}, never wrapped.
 */
public final class CheckpointFiles {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointFiles.class);

  private final Path root;
  private final FileSystem fs;

  public CheckpointFiles(Path root, Configuration conf) throws IOException {
    this.root = root;
    this.fs = root.getFileSystem(conf);
  }

  /** A stream whose file appears when it is closed (on {@code ckpt://}); see {@link #cancel}. */
  public FSDataOutputStream createAtomic(Path path, boolean overwriteIfPossible) throws IOException {
    return fs.create(path, overwriteIfPossible);
  }

  /**
   * Abandons a stream of {@link #createAtomic}: aborts it when it says it can be aborted (on {@code ckpt://}:
   * nothing becomes visible); otherwise closes it, the best that can be done.
   *
   * @throws IOException if the abort could not free what the stream held locally (nothing is visible all the
   *     same), or the close failed
   */
  public static void cancel(FSDataOutputStream out) throws IOException {
    if (out.hasCapability(StreamCapabilities.ABORTABLE_STREAM)) {
      IOException cleanup = out.abort().anyCleanupException();
      if (cleanup != null) {
        throw cleanup;
      }
    } else {
      LOG.debug("Cancelling a stream that cannot be aborted ({}): closing it", out);
      out.close();
    }
  }

  public FSDataInputStream open(Path path) throws IOException {
    return fs.open(path);
  }

  /** The entries accepted by the filter; none (not an error) when the directory does not exist. */
  public FileStatus[] list(Path path, PathFilter filter) throws IOException {
    try {
      return Arrays.stream(fs.listStatus(path)).filter(s -> filter.accept(s.getPath())).toArray(FileStatus[]::new);
    } catch (FileNotFoundException e) {
      LOG.debug("No directory {}: empty listing", path);
      return new FileStatus[0];
    }
  }

  public void mkdirs(Path path) throws IOException {
    fs.mkdirs(path);
  }

  public boolean exists(Path path) throws IOException {
    try {
      fs.getFileStatus(path);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  /** Deletes recursively; a missing path is not an error (Spark's own managers ignore it too). */
  public void delete(Path path) throws IOException {
    try {
      fs.delete(path, true);
    } catch (FileNotFoundException e) {
      LOG.debug("Delete of {}: already gone", path);
    }
  }

  public boolean isLocal() {
    return "file".equals(fs.getScheme());
  }

  /** The qualified root, created. */
  public Path createCheckpointDirectory() throws IOException {
    Path qualified = fs.makeQualified(root);
    fs.mkdirs(qualified);
    return qualified;
  }

  @Override
  public String toString() {
    return root + ", " + fs;
  }

  /**
   * Throws {@code t} unchanged, checked or not, without declaring it (how a Java implementation of a Scala trait
   * passes Hadoop's checked exceptions to Spark's callers). Use as {@code throw CheckpointFiles.rethrow(e)}.
   */
  public static RuntimeException rethrow(Throwable t) {
    CheckpointFiles.<RuntimeException>throwAs(t);
    throw new AssertionError("unreachable");
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void throwAs(Throwable t) throws T {
    throw (T) t;
  }
}
