package io.objectcommit.checkpoint.impl;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;

/**
 * What serves one authority of the checkpoint FileSystem. Paths are absolute and qualified. Semantics follow the
 * Hadoop FileSystem specification, except where a method says otherwise.
 */
public interface Backend extends Closeable {

  FileStatus getFileStatus(Path path) throws IOException;

  FileStatus[] listStatus(Path path) throws IOException;

  /** Creates the directory and its missing parents; false if a file is in the way is an exception instead. */
  boolean mkdirs(Path path) throws IOException;

  /**
   * A stream whose bytes become visible under {@code path} only when it is closed, whole and at once; with
   * {@code overwrite} false, the close fails with {@code FileAlreadyExistsException} if a file appeared meanwhile.
   * The stream is {@link org.apache.hadoop.fs.Abortable} ({@code FSDataOutputStream.abort()}; it answers
   * {@code fs.capability.outputstream.abortable}): aborting leaves nothing visible, and a later close does nothing.
   *
   * @param createParent whether missing parent directories are created (false: {@code createNonRecursive})
   */
  FSDataOutputStream create(Path path, boolean overwrite, boolean createParent) throws IOException;

  FSDataInputStream open(Path path, int bufferSize) throws IOException;

  boolean delete(Path path, boolean recursive) throws IOException;

  boolean rename(Path src, Path dst) throws IOException;

  /**
   * Takes ownership of the checkpoint location {@code location} for this instance's writes (fencing,
   * docs/checkpoint-format.md#fencing): raises the location's epoch in the store and makes every older owner's
   * next write under it fail with {@link io.objectcommit.checkpoint.CheckpointFencedException}.
   *
   * @return the new epoch
   * @throws UnsupportedOperationException on a backend that cannot fence
   */
  default long takeOwnership(Path location, String ownerId) throws IOException {
    throw new UnsupportedOperationException(describe() + " cannot fence writers (docs/checkpoint-format.md#fencing)");
  }

  /**
   * Makes this instance's writes under {@code location} those of owner {@code ownerId} at {@code epoch}, learnt
   * from the process that took ownership: they fail once a newer owner took over.
   *
   * @throws UnsupportedOperationException on a backend that cannot fence
   */
  default void writeAs(Path location, String ownerId, long epoch) {
    throw new UnsupportedOperationException(describe() + " cannot fence writers (docs/checkpoint-format.md#fencing)");
  }

  /** The epoch this instance writes {@code location} with; 0 when it was never given one. */
  default long epoch(Path location) {
    return 0;
  }

  /** Request statistics of the backend's store (empty for backends without one). */
  default IOStatistics statistics() {
    return IOStatisticsBinding.emptyStatistics();
  }

  /** The backend and where it keeps data, for messages. */
  String describe();
}
