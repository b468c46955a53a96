package io.objectcommit.checkpoint.impl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;

/**
 * How a file of the local-path backend becomes visible: its temporary file is linked to the target name with
 * {@code link(2)} when it must not overwrite (refused if the name exists, atomic on NFS too, decided by the
 * server), or renamed onto it with {@code rename(2)} when it may; then the directory is fsynced when the backend
 * fsyncs. Made by {@link LocalPathBackend#create} once per file.
 */
final class LocalPublication implements Publication<java.nio.file.Path> {

  private final Path path;
  private final java.nio.file.Path target;
  private final boolean overwrite;
  private final boolean fsync;

  /**
   * @param path the file's path, for messages
   * @param target where it appears on the mount
   */
  LocalPublication(Path path, java.nio.file.Path target, boolean overwrite, boolean fsync) {
    this.path = path;
    this.target = target;
    this.overwrite = overwrite;
    this.fsync = fsync;
  }

  /** @param written the temporary file, in the target's directory; a link leaves it for the staging to remove */
  @Override
  public void publish(java.nio.file.Path written) throws IOException {
    if (overwrite) {
      Files.move(written, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } else {
      try {
        Files.createLink(target, written);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        FileAlreadyExistsException fe = new FileAlreadyExistsException(path + " already exists");
        fe.initCause(e);
        throw fe;
      }
    }
    if (fsync) {
      LocalPathBackend.syncDirectory(target.getParent());
    }
  }

  @Override
  public String toString() {
    return path + " -> " + target;
  }
}
