package io.objectcommit.codecs.impl;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Seekable;

/**
 * A seekable stream over bytes, as {@code FSDataInputStream} is, that records each seek to before where it is: a
 * backward seek makes S3A's default input policy switch to random reads.
 */
final class SeekableBytes extends ByteArrayInputStream implements Seekable {

  /** Each backward seek, as "from -> to". */
  final List<String> backward = new ArrayList<>();

  SeekableBytes(byte[] b) {
    super(b);
  }

  @Override
  public void seek(long p) {
    if (p < pos) {
      backward.add(pos + " -> " + p);
    }
    pos = (int) p;
  }

  @Override
  public long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }
}
