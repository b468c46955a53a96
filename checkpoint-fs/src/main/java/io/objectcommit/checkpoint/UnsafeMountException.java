package io.objectcommit.checkpoint;

import java.util.List;
import org.apache.hadoop.fs.PathIOException;

/**
 * The local-path backend's root is on an NFS mount whose options make the backend inexact across nodes (for
 * example {@code nocto}); thrown when the FileSystem is initialised, unless
 * {@link CheckpointConstants#LOCAL_UNSAFE_MOUNT} is {@code warn}. The message names each option and its fix.
 */
public class UnsafeMountException extends PathIOException {

  private static final long serialVersionUID = 1L;
  private final List<String> options;

  public UnsafeMountException(String mountPoint, List<String> options, String message) {
    super(mountPoint, message);
    this.options = List.copyOf(options);
  }

  /** The offending mount options, as /proc/mounts shows them ({@code nocto}, {@code soft}). */
  public List<String> options() {
    return options;
  }
}
