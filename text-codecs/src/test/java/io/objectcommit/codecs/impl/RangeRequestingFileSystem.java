package io.objectcommit.codecs.impl;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.impl.OpenFileParameters;

/**
 * The local file system read as S3A reads S3, for the scheme {@value #SCHEME}: each read that its open request does
 * not cover opens one, and the request is recorded. Under the random read policy (asked for with
 * {@code fs.option.openfile.read.policy=random} in {@code openFile}) a request at {@code p} ends at {@code p} +
 * max(read-ahead, length of the read); under the default policy it runs to the end of the file. A store sends what a
 * request asks for, less what the client cuts off by closing it: the requested bytes are the most it can send.
 */
public final class RangeRequestingFileSystem extends RawLocalFileSystem {

  static final String SCHEME = "rangereq";

  /** Every request of every stream. */
  static final List<Request> REQUESTS = new ArrayList<>();

  /** A request for the bytes {@code [start, end)} of the file named {@code name}, by a stream of a read policy. */
  static final class Request {
    final String name;
    final long start;
    final long end;
    final boolean random;

    Request(String name, long start, long end, boolean random) {
      this.name = name;
      this.start = start;
      this.end = end;
      this.random = random;
    }

    @Override
    public String toString() {
      return name + "[" + start + ", " + end + ")" + (random ? " random" : "");
    }
  }

  /** Registers the scheme in {@code conf}. */
  static void register(org.apache.hadoop.conf.Configuration conf) {
    conf.set("fs." + SCHEME + ".impl", RangeRequestingFileSystem.class.getName());
    conf.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
  }

  /** The path of a local file under the scheme. */
  static Path of(java.nio.file.Path file) {
    return new Path(SCHEME + "://" + file.toAbsolutePath());
  }

  /** The bytes the recorded requests for the file named {@code name} asked for. */
  static long requestedBytes(String name) {
    return requests(name).stream().mapToLong(r -> r.end - r.start).sum();
  }

  /** The recorded requests for the file named {@code name}. */
  static synchronized List<Request> requests(String name) {
    List<Request> of = new ArrayList<>();
    REQUESTS.stream().filter(r -> r.name.equals(name)).forEach(of::add);
    return of;
  }

  static synchronized void reset() {
    REQUESTS.clear();
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public java.net.URI getUri() {
    return java.net.URI.create(SCHEME + ":///");
  }

  @Override
  public Path makeQualified(Path path) {
    return path;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return open(f, false);
  }

  @Override
  protected CompletableFuture<FSDataInputStream> openFileWithOptions(Path path, OpenFileParameters parameters)
      throws IOException {
    boolean random = "random".equals(parameters.getOptions().get("fs.option.openfile.read.policy"));
    return CompletableFuture.completedFuture(open(path, random));
  }

  private FSDataInputStream open(Path f, boolean random) throws IOException {
    byte[] bytes = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(f.toUri().getPath()));
    return new FSDataInputStream(new Stream(f.getName(), bytes, random));
  }

  /** A stream over the file's bytes that asks for them as S3A does. */
  private static final class Stream extends FSInputStream implements CanSetReadahead {
    private final String name;
    private final byte[] bytes;
    private final boolean random;
    private long readahead = 64 * 1024;
    private long pos;
    private long requestEnd = -1;

    Stream(String name, byte[] bytes, boolean random) {
      this.name = name;
      this.bytes = bytes;
      this.random = random;
    }

    @Override
    public void setReadahead(Long value) {
      readahead = value == null ? 64 * 1024 : value;
    }

    @Override
    public void seek(long p) throws IOException {
      if (p < 0 || p > bytes.length) {
        throw new EOFException("seek to " + p + " of " + bytes.length);
      }
      if (p < pos || p >= requestEnd) {
        requestEnd = -1;
      }
      pos = p;
    }

    @Override
    public long getPos() {
      return pos;
    }

    /** What is left in the file, as S3A's stream says. */
    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, bytes.length - pos);
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (pos >= bytes.length) {
        return -1;
      }
      if (requestEnd < 0 || pos >= requestEnd) {
        long end = random ? Math.min(bytes.length, pos + Math.max(readahead, len)) : bytes.length;
        synchronized (RangeRequestingFileSystem.class) {
          REQUESTS.add(new Request(name, pos, end, random));
        }
        requestEnd = end;
      }
      int n = (int) Math.min(len, requestEnd - pos);
      System.arraycopy(bytes, (int) pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
