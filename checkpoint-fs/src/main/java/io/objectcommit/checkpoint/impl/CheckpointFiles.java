package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointFencing;
import io.objectcommit.checkpoint.CheckpointFileSystem;
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

  /** The local property that carries a checkpoint location's owner from the driver to its tasks: this + location. */
  public static final String OWNER_PROPERTY_PREFIX = "objectcommit.checkpoint.owner.";

  /**
   * What fencing needs from Spark (docs/checkpoint-format.md#fencing), given by each Spark line's manager: whether
   * this is the driver, the task's local properties, and the driver thread's.
   */
  public interface SparkSide {
    /** Whether this runs outside any task (the driver). */
    boolean onDriver();

    /** A local property of the running task; null when none or not in a task. */
    String taskProperty(String key);

    /** Sets a local property on the current (driver) thread: jobs started from it, and threads it starts, carry it. */
    void setDriverProperty(String key, String value);

    /** An id for a new owner (the application id and a unique part). */
    String newOwnerId();
  }

  private final Path root;
  private final FileSystem fs;
  private final SparkSide spark;

  public CheckpointFiles(Path root, Configuration conf) throws IOException {
    this(root, conf, null);
  }

  /**
   * @param spark what fencing needs from Spark; null: no fencing (a process that knows no epoch writes as before)
   */
  public CheckpointFiles(Path root, Configuration conf, SparkSide spark) throws IOException {
    this.root = root;
    this.fs = root.getFileSystem(conf);
    this.spark = spark;
    if (spark != null && !spark.onDriver() && fs instanceof CheckpointFileSystem) {
      learnOwner();
    }
  }

  /**
   * In a task: the owner of the checkpoint location that contains this manager's path, as its driver passed it in
   * a local property, becomes the epoch this process's FileSystem writes with.
   */
  private void learnOwner() {
    for (Path p = fs.makeQualified(root); p != null; p = p.getParent()) {
      String owner = spark.taskProperty(OWNER_PROPERTY_PREFIX + p);
      if (owner != null) {
        int bar = owner.lastIndexOf('|');
        CheckpointFencing.writeAs(fs, p, owner.substring(0, bar), Long.parseLong(owner.substring(bar + 1)));
        LOG.debug("{}: writing as owner {} of {}", root, owner, p);
        return;
      }
    }
  }

  /**
   * On the driver, Spark reads a query's {@code <checkpoint>/metadata} through a manager made for the checkpoint
   * root when the query starts or restarts ({@code StreamMetadata.read}, from {@code StreamExecution}'s
   * constructor, on the thread that starts the query, before the query's thread is made): there the query takes
   * ownership of the location, and passes the owner and epoch on in a local property to the query's thread and its
   * tasks. On the local-path backend, which cannot fence, nothing happens.
   */
  private void takeOwnershipAtQueryStart(Path path) throws IOException {
    if (spark == null || !spark.onDriver() || !"metadata".equals(path.getName()) || path.getParent() == null
        || !(fs instanceof CheckpointFileSystem)) {
      return;
    }
    Path location = fs.makeQualified(root);
    if (!fs.makeQualified(path.getParent()).equals(location)
        || !(((CheckpointFileSystem) fs).backend() instanceof ManifestBackend)) {
      return;
    }
    String owner = spark.newOwnerId();
    long epoch = CheckpointFencing.takeOwnership(fs, location, owner);
    spark.setDriverProperty(OWNER_PROPERTY_PREFIX + location, owner + "|" + epoch);
    LOG.info("Query on {} took ownership of its checkpoint as owner '{}', epoch {}", location, owner, epoch);
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
    takeOwnershipAtQueryStart(path);
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
