package io.objectcommit.codecs.impl;

import io.objectcommit.codecs.files.GzipIndex;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;

/**
 * The gzip indexes this JVM has read, so that the tasks of an executor that read splits of one file read its index
 * once, not once per split (an index is about 1 MB per GB of text). An entry is the index of one version of the
 * index object: its path, length, modification time and, where the file system gives one, ETag, as the file
 * system's status gives them now; a replaced index is another entry, so a cached index is never served for another
 * version. Bounded by the indexes' stored size ({@value #MAX_BYTES} bytes), least recently used first out.
 *
 * <p>JVM-wide: Hadoop makes a codec instance per configuration and gives it no lifetime beyond a split, so the JVM
 * (an executor) is the only scope the tasks share.
 */
public final class GzipIndexCache {

  /** The most stored index bytes kept. */
  static final long MAX_BYTES = 64L << 20;

  private static final GzipIndexCache JVM = new GzipIndexCache(MAX_BYTES);

  private final long maxBytes;
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  GzipIndexCache(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The JVM's cache. */
  public static GzipIndexCache jvm() {
    return JVM;
  }

  /** How an index is read when it is not cached: its stored bytes. */
  public interface Reader {
    byte[] read() throws IOException;
  }

  /**
   * The index stored as {@code status} says, from the cache or read by {@code reader} (and then kept if it is not
   * larger than the bound); a damaged index is the codec's {@link IOException} naming it, and not kept. Splits that
   * ask for the same index at once wait for one read of it.
   */
  public GzipIndex get(FileStatus status, Reader reader) throws IOException {
    Key key = new Key(status);
    Entry entry;
    boolean reads;
    synchronized (this) {
      entry = entries.get(key);
      reads = entry == null;
      if (reads) {
        entry = new Entry();
        entries.put(key, entry);
      }
    }
    if (!reads) {
      return await(entry.index, status);
    }
    try {
      byte[] stored = reader.read();
      GzipIndex index = GzipIndex.CODEC.fromBytes(stored, status.getPath().toString());
      synchronized (this) {
        if (stored.length > maxBytes) {
          entries.remove(key, entry);
        } else {
          entry.bytes = stored.length;
          bytes += stored.length;
        }
        Iterator<Map.Entry<Key, Entry>> oldest = entries.entrySet().iterator();
        while (bytes > maxBytes && oldest.hasNext()) {
          Entry e = oldest.next().getValue();
          if (e.index.isDone()) {
            bytes -= e.bytes;
            oldest.remove();
          }
        }
      }
      entry.index.complete(index);
      return index;
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        entries.remove(key, entry);
      }
      entry.index.completeExceptionally(e);
      throw e;
    }
  }

  private static GzipIndex await(CompletableFuture<GzipIndex> pending, FileStatus status) throws IOException {
    try {
      return pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted waiting for the gzip index " + status.getPath());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        // the reading split's failure, of its type (a damaged index names itself)
        throw (IOException) cause;
      }
      throw new IOException("reading the gzip index " + status.getPath(), cause);
    }
  }

  /** Forgets every index (for tests that count the reads of an index). */
  synchronized void clear() {
    entries.clear();
    bytes = 0;
  }

  /** How many indexes are kept. */
  synchronized int size() {
    return entries.size();
  }

  /** An index being read or read; its stored size once read. */
  private static final class Entry {
    final CompletableFuture<GzipIndex> index = new CompletableFuture<>();
    long bytes;
  }

  /** One version of an index object. */
  private static final class Key {
    final String path;
    final long length;
    final long modified;
    final String etag;

    Key(FileStatus status) {
      this.path = status.getPath().toString();
      this.length = status.getLen();
      this.modified = status.getModificationTime();
      this.etag = status instanceof EtagSource ? ((EtagSource) status).getEtag() : null;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) {
        return false;
      }
      Key k = (Key) o;
      return path.equals(k.path) && length == k.length && modified == k.modified && Objects.equals(etag, k.etag);
    }

    @Override
    public int hashCode() {
      return Objects.hash(path, length, modified, etag);
    }
  }
}
