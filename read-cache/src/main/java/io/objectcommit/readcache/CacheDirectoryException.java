package io.objectcommit.readcache;

import org.apache.hadoop.fs.PathIOException;

/**
 * The cache directory cannot be used safely: it is not a directory, is owned by another user, or is open to its
 * group or others (a block written there could be read or replaced by another user). Names the directory and the
 * setting that chose it.
 */
public class CacheDirectoryException extends PathIOException {

  private static final long serialVersionUID = 1L;

  public CacheDirectoryException(String path, String operation, String why) {
    super(path, operation + ": " + why);
  }
}
