package io.objectcommit.checkpoint.impl;

import java.io.IOException;

/**
 * How the bytes of one file being written become visible: the one hook an {@link AtomicOutputStream} publishes
 * through. The backend creates it when it creates the stream, with everything publishing needs already inside
 * (where, under which condition, which store), so that data flows one way: the stream hands its bytes over and
 * never calls back into the backend, as S3A's {@code PutTracker} separates its output stream from the committers.
 * Keep it small.
 *
 * @param <T> the form in which the stream's {@link Staging} hands the bytes over
 */
@FunctionalInterface
interface Publication<T> {

  /**
   * Makes the written bytes visible under the file's path, whole and at once. Called at most once, after the last
   * write. If it throws, none of these bytes is visible under the path (an object or file it leaves behind is
   * invisible garbage, removed here when possible, else by {@code objectcommit checkpoint gc}).
   */
  void publish(T written) throws IOException;

  /** The stream was abandoned (aborted, or a write failed): {@link #publish} will not be called. */
  default void abandon() {}
}
