package io.objectcommit.codecs.impl;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.util.functional.FutureIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compressed bytes of one split, read through a stream of the split's own that asks the store for the bytes the
 * split needs and few more ({@link io.objectcommit.codecs.CodecConstants#BOUNDED_READS}).
 *
 * <p>Why: Hadoop's line reader hands a codec the stream it opened, on S3A with the default read policy, under which
 * the first read opens one request to the end of the object. When the split closes it after its last record, S3A cuts
 * the request, and the bytes already in flight (the sockets' buffers: megabytes when the decoder reads slower than the
 * network sends) were sent for nothing; the first header, which every split reads at offset 0, costs such a cut
 * request too. This stream opens the file again with the random read policy, under which S3A's request for a read at
 * {@code p} ends at {@code p} + max(read-ahead, length of the read), and sets the read-ahead before each read: up to
 * the end the split {@link #expect expects} to need, in one request; beyond it, in requests that grow from
 * {@value #MIN_TAIL} bytes (the last record of a split, a unit that starts in the split and ends after it). Hadoop's
 * stream is never read; it is closed with this one.
 */
public final class RangedInput extends InputStream implements Seekable {

  private static final Logger LOG = LoggerFactory.getLogger(RangedInput.class);

  /** The smallest request past the expected end. */
  static final int MIN_TAIL = 64 * 1024;

  /** What a split that does not start at 0 expects to read of the file's start: its first header. */
  static final int PROBE = 8 * 1024;

  private static final String READ_POLICY = "fs.option.openfile.read.policy";
  /** The read policy's name before Hadoop 3.3.5 (S3A's own option; later versions read both). */
  private static final String S3A_FADVISE = "fs.s3a.experimental.input.fadvise";
  private static final String LENGTH = "fs.option.openfile.length";

  private final FSDataInputStream own;
  private final Closeable given;
  private long expectedEnd;

  /** Reads {@code own} (a stream whose read-ahead can be set), closes {@code given} with it. */
  RangedInput(FSDataInputStream own, Closeable given) {
    this.own = own;
    this.given = given;
    this.expectedEnd = MIN_TAIL;
  }

  /**
   * The stream a split {@code [start, end)} of a file reads: a ranged one when the codec's {@code options} allow it,
   * a Spark task names the file and its file system's streams take a read-ahead; else {@code given}, the stream
   * Hadoop opened. {@code conf} (null: none) opens the file.
   */
  public static InputStream open(InputStream given, long start, long end, Configuration conf, CodecOptions options)
      throws IOException {
    if (conf == null || !options.boundedReads() || !takesReadahead(given)) {
      return given;
    }
    long length = lengthOf((FSDataInputStream) given);
    if (start == 0 && length >= 0 && end >= length) {
      // the split is the whole file: Hadoop's stream reads it to its end, nothing is cut
      return given;
    }
    Optional<Path> file = SparkInputFile.of(start, end);
    if (file.isEmpty()) {
      return given;
    }
    FutureDataInputStreamBuilder builder = file.get().getFileSystem(conf).openFile(file.get())
        .opt(READ_POLICY, "random").opt(S3A_FADVISE, "random");
    if (length >= 0) {
      // spares the open its HEAD where the file system takes the length (S3A from Hadoop 3.3.5)
      builder.opt(LENGTH, Long.toString(length));
    }
    FSDataInputStream own = FutureIO.awaitFuture(builder.build());
    if (!takesReadahead(own)) {
      own.close();
      return given;
    }
    LOG.debug("split [{}, {}) of {} reads its own range", start, end, file.get());
    return new RangedInput(own, given);
  }

  /**
   * The length of the file {@code in} reads, where its stream says it: at position 0, the bytes a stream that takes a
   * read-ahead reports available are those left in the file (S3A's, HDFS's), up to {@link Integer#MAX_VALUE}; -1 when
   * not known.
   */
  private static long lengthOf(FSDataInputStream in) throws IOException {
    if (in.getPos() != 0) {
      return -1;
    }
    int available = in.available();
    return available > 0 && available < Integer.MAX_VALUE ? available : -1;
  }

  private static boolean takesReadahead(InputStream in) {
    return in instanceof FSDataInputStream && ((FSDataInputStream) in).getWrappedStream() instanceof CanSetReadahead;
  }

  /**
   * Says that the split needs the bytes up to {@code end} (exclusive) from where it is: they are asked for in one
   * request. Does nothing to another stream than this class's.
   */
  static void expect(InputStream in, long end) {
    if (in instanceof RangedInput) {
      ((RangedInput) in).expectedEnd = end;
    }
  }

  /** The read-ahead for a read at {@code pos}: to the expected end, or a request that grows past it. */
  long readaheadAt(long pos) {
    return pos < expectedEnd ? expectedEnd - pos : Math.max(MIN_TAIL, pos - expectedEnd);
  }

  @Override
  public int read() throws IOException {
    own.setReadahead(readaheadAt(own.getPos()));
    return own.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    own.setReadahead(readaheadAt(own.getPos()));
    return own.read(b, off, len);
  }

  @Override
  public void seek(long pos) throws IOException {
    own.seek(pos);
  }

  @Override
  public long getPos() throws IOException {
    return own.getPos();
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public void close() throws IOException {
    try {
      own.close();
    } finally {
      given.close();
    }
  }
}
