package io.objectcommit.direct.impl;

import io.objectcommit.direct.DirectCommitterConstants;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The write-only file system of task work paths, {@code ocdirect://bucket/ATTEMPT/key...}: a file created here is
 * written to the final key {@code key...} of the bucket by the {@link AttemptWriter} of attempt {@code ATTEMPT}
 * (found in this JVM's {@link AttemptRegistry}), through the object store. Status, listing and delete answer from
 * what the attempt wrote, without any request. Reading, renaming and appending are not supported: output is read
 * through {@code s3a://}.
 */
public final class DirectWorkFileSystem extends FileSystem {

  private static final long BLOCK_SIZE = 128L * 1024 * 1024;

  private URI uri;
  private Path workingDir;

  /** A path of this file system, split into attempt and key. */
  static final class WorkPath {
    final String attempt;
    final String key;

    WorkPath(String attempt, String key) {
      this.attempt = attempt;
      this.key = key;
    }
  }

  @Override
  public String getScheme() {
    return DirectCommitterConstants.WORK_SCHEME;
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    this.uri = URI.create(DirectCommitterConstants.WORK_SCHEME + "://" + name.getAuthority());
    this.workingDir = new Path(uri.toString() + "/");
  }

  @Override
  public URI getUri() {
    return uri;
  }

  static WorkPath parse(Path p) {
    String path = p.toUri().getPath();
    while (path.startsWith("/")) {
      path = path.substring(1);
    }
    int slash = path.indexOf('/');
    return slash < 0 ? new WorkPath(path, "") : new WorkPath(path.substring(0, slash), path.substring(slash + 1));
  }

  private AttemptWriter writer(WorkPath w, Path p) throws IOException {
    AttemptWriter writer = AttemptRegistry.get(w.attempt);
    if (writer == null) {
      throw new FileNotFoundException(p + ": no active task attempt " + w.attempt + " of the direct committer in "
          + "this JVM (work paths exist only while their task attempt runs)");
    }
    return writer;
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    Path q = makeQualified(f);
    WorkPath w = parse(q);
    AttemptWriter writer = writer(w, q);
    if (!overwrite && writer.sizeOf(w.key) >= 0) {
      throw new FileAlreadyExistsException(q + " was already written by this task attempt");
    }
    return new FSDataOutputStream(writer.create(w.key), statistics);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    Path q = makeQualified(f);
    WorkPath w = parse(q);
    AttemptWriter writer = writer(w, q);
    long size = writer.sizeOf(w.key);
    if (size >= 0) {
      return new FileStatus(size, false, 1, BLOCK_SIZE, System.currentTimeMillis(), q);
    }
    if (writer.isDirectory(w.key)) {
      return new FileStatus(0, true, 1, 0, 0, q);
    }
    throw new FileNotFoundException(q + ": not written by task attempt " + w.attempt);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    Path q = makeQualified(f);
    WorkPath w = parse(q);
    AttemptWriter writer = writer(w, q);
    long size = writer.sizeOf(w.key);
    if (size >= 0) {
      return new FileStatus[] {getFileStatus(q)};
    }
    String dir = w.key.isEmpty() || w.key.endsWith("/") ? w.key : w.key + "/";
    List<FileStatus> out = new ArrayList<>();
    for (String k : writer.filesUnder(dir)) {
      out.add(new FileStatus(writer.sizeOf(k), false, 1, BLOCK_SIZE, 0,
          new Path(uri.toString() + "/" + w.attempt + "/" + k)));
    }
    return out.toArray(new FileStatus[0]);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    Path q = makeQualified(f);
    WorkPath w = parse(q);
    return writer(w, q).delete(w.key);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) {
    return true;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    throw new UnsupportedOperationException(f + ": task work paths of the direct committer are write-only");
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    throw new UnsupportedOperationException(f + ": append is not supported on S3");
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw new UnsupportedOperationException(src + ": the direct committer never renames");
  }

  @Override
  public void setWorkingDirectory(Path newDir) {
    workingDir = newDir;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public long getDefaultBlockSize(Path f) {
    return BLOCK_SIZE;
  }

  @Override
  public short getDefaultReplication(Path path) {
    return 1;
  }
}
