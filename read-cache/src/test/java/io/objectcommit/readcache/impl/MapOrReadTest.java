package io.objectcommit.readcache.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A block file is mapped; where the JVM cannot map it, it is read onto the heap and the hit still served. */
class MapOrReadTest {

  @TempDir
  Path tmp;

  @Test
  void aBlockFileIsMappedAndReadWhenItCannotBe() throws Exception {
    byte[] bytes = new byte[1000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    Path p = Files.write(tmp.resolve("b.blk"), bytes);
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      ByteBuffer mapped = CacheDirectory.mapOrRead(ch, bytes.length, p);
      assertTrue(mapped instanceof MappedByteBuffer, "mapped where the JVM can");
      assertEquals(bytes[999], mapped.get(999));
      BlockView.unmap(mapped);
    }
    try (FileChannel ch = new UnmappableChannel(FileChannel.open(p, StandardOpenOption.READ))) {
      ByteBuffer read = CacheDirectory.mapOrRead(ch, bytes.length, p);
      assertFalse(read instanceof MappedByteBuffer);
      byte[] got = new byte[bytes.length];
      ByteBuffer all = read.duplicate();
      all.position(0); // read by absolute positions: the read left the buffer's position at its end
      all.get(got);
      assertArrayEquals(bytes, got, "read whole onto the heap");
      assertEquals(bytes.length, read.capacity());
    }
  }

  /** A channel that reads but cannot map (as when the process is out of address space or map areas). */
  private static final class UnmappableChannel extends FileChannel {
    private final FileChannel in;

    UnmappableChannel(FileChannel in) {
      this.in = in;
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      throw new IOException("Map failed");
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return in.read(dst, position);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return in.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return in.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int write(ByteBuffer src, long position) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long position() throws IOException {
      return in.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      in.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return in.size();
    }

    @Override
    public FileChannel truncate(long size) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void force(boolean metaData) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) {
      throw new UnsupportedOperationException();
    }

    @Override
    protected void implCloseChannel() throws IOException {
      in.close();
    }
  }
}
