package io.objectcommit.readcache;

import io.objectcommit.store.ObjectStore;
import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;

/**
 * A seekable stream over one object identity, read block by block through a {@link ReadCache}: a block is served
 * from the cache directory when there, else fetched with one ranged GET of the whole block pinned to the identity's
 * ETag. The identity is fixed when the stream is opened: if the object is replaced while the stream is open,
 * blocks already cached still serve the old object's bytes, and the first block that is not fails with
 * {@link io.objectcommit.store.ObjectChangedException}; a stream never returns bytes of two objects.
 *
 * <p>Positioned reads do not move the stream's position. Not for concurrent use beyond what Hadoop's
 * {@code FSInputStream} contract asks (its methods are synchronized).
 */
public final class CachingInputStream extends FSInputStream {

  private final ReadCache cache;
  private final ObjectStore store;
  private final ObjectIdentity identity;
  private final int blockSize;
  private long pos;
  private byte[] block;
  private long blockIndex = -1;
  private boolean closed;

  CachingInputStream(ReadCache cache, ObjectStore store, ObjectIdentity identity) {
    this.cache = cache;
    this.store = store;
    this.identity = identity;
    this.blockSize = cache.options().blockSize();
  }

  /** The identity every byte of this stream belongs to. */
  public ObjectIdentity identity() {
    return identity;
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    if (pos >= identity.length()) {
      return -1;
    }
    byte[] b = current(pos);
    int v = b[(int) (pos - blockIndex * blockSize)] & 0xff;
    pos++;
    return v;
  }

  @Override
  public synchronized int read(byte[] buf, int off, int len) throws IOException {
    checkOpen();
    java.util.Objects.checkFromIndexSize(off, len, buf.length);
    if (len == 0) {
      return 0;
    }
    if (pos >= identity.length()) {
      return -1;
    }
    int n = 0;
    while (n < len && pos < identity.length()) {
      byte[] b = current(pos);
      int at = (int) (pos - blockIndex * blockSize);
      int k = Math.min(len - n, b.length - at);
      System.arraycopy(b, at, buf, off + n, k);
      n += k;
      pos += k;
    }
    return n;
  }

  @Override
  public synchronized int read(long position, byte[] buf, int off, int len) throws IOException {
    checkOpen();
    validatePositionedReadArgs(position, buf, off, len);
    if (len == 0) {
      return 0;
    }
    if (position >= identity.length()) {
      return -1;
    }
    int n = 0;
    long p = position;
    while (n < len && p < identity.length()) {
      long index = p / blockSize;
      byte[] b = index == blockIndex ? block : cache.block(store, identity, index);
      int at = (int) (p - index * blockSize);
      int k = Math.min(len - n, b.length - at);
      System.arraycopy(b, at, buf, off + n, k);
      n += k;
      p += k;
    }
    return n;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + target + " in " + identity.path());
    }
    if (target > identity.length()) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target + " in " + identity);
    }
    pos = target;
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    if (n <= 0) {
      return 0;
    }
    long k = Math.min(n, identity.length() - pos);
    pos += k;
    return k;
  }

  @Override
  public synchronized long getPos() throws IOException {
    checkOpen();
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  /** The bytes of the current block after the position (what can be read with no request and no disk read). */
  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    if (block == null || pos / blockSize != blockIndex) {
      return 0;
    }
    return (int) (blockIndex * blockSize + block.length - pos);
  }

  @Override
  public synchronized void close() {
    closed = true;
    block = null;
  }

  @Override
  public String toString() {
    return "CachingInputStream{" + identity + ", pos=" + pos + (closed ? ", closed" : "") + "}";
  }

  private byte[] current(long p) throws IOException {
    long index = p / blockSize;
    if (index != blockIndex) {
      byte[] b = cache.block(store, identity, index);
      block = b;
      blockIndex = index;
    }
    return block;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + identity.path());
    }
  }
}
