package io.objectcommit.codecs.impl;

import java.io.IOException;

/**
 * Decodes the self-contained units of a splittable compressed file (BGZF blocks, zstd frames) one at a time, from
 * a {@link BlockInput} read forward only: what {@link UnitSplitInputStream} reads a split with.
 */
interface UnitDecoder extends AutoCloseable {

  /** {@link #decode} found no valid unit at the offset (not strict). */
  int NOT_A_UNIT = -1;

  /**
   * Decodes the unit at {@code offset} into {@link #data()}: returns its compressed size, 0 when the stream ends
   * exactly there, or (when {@code strict} is false) {@link #NOT_A_UNIT} when no valid unit starts there. Strict, a
   * bad unit is an {@link IOException} naming the offset. A unit may have no content (skipped frames).
   */
  int decode(long offset, boolean strict) throws IOException;

  /** The content of the unit last decoded. */
  byte[] data();

  /** The length of {@link #data()}'s content. */
  int dataLength();

  @Override
  void close();
}
