package io.objectcommit.codecs.impl;

import io.objectcommit.store.ObjectChangedException;
import io.objectcommit.store.ObjectStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of one object (one ETag) read start to end, resumed where they stopped when the connection breaks: a
 * read that fails (or ends before the object's length) reopens the object from the position reached, with
 * {@code If-Match} on the same ETag, so the bytes are never those of two versions. A recompression reads a large
 * object slowly (it compresses as it reads), long enough for a connection to be dropped. Gives up after
 * {@value #ATTEMPTS} failures in a row without a byte read between them.
 */
public final class ResumingInput extends InputStream {

  private static final Logger LOG = LoggerFactory.getLogger(ResumingInput.class);

  /** Failures in a row (no byte read between them) before giving up. */
  static final int ATTEMPTS = 3;

  private final ObjectStore store;
  private final String key;
  private final long length;
  private final String etag;
  private InputStream in;
  private long pos;
  private int failures;
  private int reopened;

  /**
   * @param first the stream over the whole object, already opened with {@code If-Match: etag}
   */
  public ResumingInput(ObjectStore store, String key, long length, String etag, InputStream first) {
    this.store = store;
    this.key = key;
    this.length = length;
    this.etag = etag;
    this.in = first;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (pos < length) {
      IOException failure;
      try {
        int n = in.read(b, off, (int) Math.min(len, length - pos));
        if (n > 0) {
          pos += n;
          failures = 0;
          return n;
        }
        failure = new IOException(store.pathOf(key) + ": the stream ended at " + pos + " of " + length + " bytes");
      } catch (ObjectChangedException | FileNotFoundException | InterruptedIOException e) {
        throw e;
      } catch (IOException e) {
        failure = e;
      }
      failures++;
      if (failures >= ATTEMPTS) {
        throw failure;
      }
      LOG.warn("{}: read broke at byte {} of {} ({}); reading on from there (If-Match {})", store.pathOf(key), pos,
          length, failure.toString(), etag);
      closeQuietly();
      in = store.open(key, pos, -1, etag);
      reopened++;
    }
    return -1;
  }

  /** How many times the object was reopened. */
  public int reopened() {
    return reopened;
  }

  private void closeQuietly() {
    try {
      in.close();
    } catch (IOException e) {
      LOG.debug("{}: closing a broken stream: {}", store.pathOf(key), e.toString());
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
