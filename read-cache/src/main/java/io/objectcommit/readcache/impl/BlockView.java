package io.objectcommit.readcache.impl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import org.apache.hadoop.util.CleanerUtil;

/**
 * The payload of one block as its reader sees it: a block file of the cache directory mapped into memory (read
 * where it lies in the page cache, its bytes copied once, into the reader's buffer; read onto the heap only where the
 * JVM cannot map it) or the bytes fetched from S3.
 *
 * <p>A view is handed to one reader, which {@link #release releases} it when it moves on: a mapped file is then
 * unmapped at once (where the JVM lets Hadoop's {@link CleanerUtil} do so; else when the garbage collector frees the
 * buffer), after which the view refuses to be read rather than touch memory that is no longer mapped. A view never
 * released (a block fetched ahead and never read) is unmapped by the garbage collector. Not thread-safe.
 */
public final class BlockView {

  private final ByteBuffer bytes;
  private final int offset;
  private final int length;
  private boolean released;

  private BlockView(ByteBuffer bytes, int offset, int length) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
  }

  /** A view of bytes held on the heap (a block fetched from S3). */
  public static BlockView of(byte[] data) {
    return new BlockView(ByteBuffer.wrap(data), 0, data.length);
  }

  /** The payload of a block file, mapped or read onto the heap: {@code length} bytes from {@code offset}. */
  static BlockView of(ByteBuffer file, int offset, int length) {
    return new BlockView(file, offset, length);
  }

  /** The payload's length. */
  public int length() {
    return length;
  }

  /** The byte at {@code at} of the payload, unsigned. */
  public int get(int at) {
    checkReadable();
    return bytes.get(offset + at) & 0xff;
  }

  /** Copies {@code len} bytes of the payload from {@code at} into {@code dst} at {@code off}. */
  public void copy(int at, byte[] dst, int off, int len) {
    checkReadable();
    ByteBuffer d = bytes.duplicate();
    d.position(offset + at);
    d.get(dst, off, len);
  }

  /** Done with the view: a mapped file is unmapped now where the JVM allows it. Idempotent. */
  public void release() {
    if (released) {
      return;
    }
    released = true;
    unmap(bytes);
  }

  /**
   * Unmaps a mapped file now where the JVM allows it; else the garbage collector unmaps it when it frees the buffer.
   * The buffer must not be read afterwards. Nothing to do for bytes on the heap.
   */
  static void unmap(ByteBuffer file) {
    if (!(file instanceof MappedByteBuffer) || !CleanerUtil.UNMAP_SUPPORTED) {
      return;
    }
    try {
      CleanerUtil.getCleaner().freeBuffer(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot unmap a read-cache block: " + e.getMessage(), e);
    }
  }

  private void checkReadable() {
    if (released) {
      throw new IllegalStateException("a released block is read: a bug of its reader");
    }
  }
}
