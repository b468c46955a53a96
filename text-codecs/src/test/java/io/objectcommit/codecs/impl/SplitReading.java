package io.objectcommit.codecs.impl;

import com.github.luben.zstd.ZstdInputStream;
import io.objectcommit.codecs.CodecConstants;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * Test helpers: files, the lines a file holds computed independently of Hadoop (java.util.zip or zstd-jni's stream
 * and a line splitter of our own), and the lines Hadoop's LineRecordReader (both APIs, as Spark's text sources and
 * sc.textFile use them) reads from each split of a file.
 */
final class SplitReading {

  private SplitReading() {
  }

  /** A configuration that registers the BGZF and seekable zstd codecs (BGZF taking {@code .gz} when asked). */
  static Configuration conf(boolean claimGz) {
    return conf(claimGz, false);
  }

  /** A configuration that registers both codecs, each taking its plain format's extension when asked. */
  static Configuration conf(boolean claimGz, boolean claimZst) {
    Configuration conf = new Configuration(false);
    conf.set(CodecConstants.HADOOP_CODECS, CodecConstants.BGZF_CODEC_CLASS + "," + CodecConstants.ZSTD_CODEC_CLASS);
    conf.setBoolean(CodecConstants.BGZF_CLAIM_GZ, claimGz);
    conf.setBoolean(CodecConstants.ZSTD_CLAIM_ZST, claimZst);
    conf.set("fs.file.impl.disable.cache", "true");
    // no checksum files: thousands of tiny splits open the file thousands of times
    conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    return conf;
  }

  /** The lines of one split and of all splits. */
  static final class Result {
    final List<String> lines = new ArrayList<>();
    final List<Integer> perSplit = new ArrayList<>();

    int splitsWithRecords() {
      return (int) perSplit.stream().filter(n -> n > 0).count();
    }
  }

  /** Reads {@code file} in splits of {@code splitSize} bytes through the new API's LineRecordReader. */
  static Result readSplits(Configuration conf, java.nio.file.Path file, long splitSize) throws IOException {
    long length = Files.size(file);
    List<long[]> splits = new ArrayList<>();
    for (long s = 0; s < Math.max(length, 1); s += splitSize) {
      splits.add(new long[] {s, Math.min(splitSize, length - s)});
    }
    return readSplits(conf, file, splits, false);
  }

  /** Reads the given splits ({@code {start, length}}, covering the file in order). */
  static Result readSplits(Configuration conf, java.nio.file.Path file, List<long[]> splits, boolean oldApi)
      throws IOException {
    return readSplits(conf, file, splits, oldApi, s -> { });
  }

  /** As above; {@code beforeEach} is told of each split before it is opened (as Spark records it for a task). */
  static Result readSplits(Configuration conf, java.nio.file.Path file, List<long[]> splits, boolean oldApi,
      java.util.function.Consumer<long[]> beforeEach) throws IOException {
    Result r = new Result();
    Path path = new Path(file.toUri());
    for (long[] s : splits) {
      beforeEach.accept(s);
      List<String> lines = oldApi ? readOld(conf, path, s[0], s[1]) : readNew(conf, path, s[0], s[1]);
      r.lines.addAll(lines);
      r.perSplit.add(lines.size());
    }
    return r;
  }

  private static List<String> readNew(Configuration conf, Path path, long start, long length) throws IOException {
    List<String> lines = new ArrayList<>();
    try (LineRecordReader reader = new LineRecordReader()) {
      reader.initialize(new FileSplit(path, start, length, new String[0]),
          new TaskAttemptContextImpl(conf, new TaskAttemptID()));
      while (reader.nextKeyValue()) {
        lines.add(reader.getCurrentValue().toString());
      }
    }
    return lines;
  }

  private static List<String> readOld(Configuration conf, Path path, long start, long length) throws IOException {
    List<String> lines = new ArrayList<>();
    org.apache.hadoop.mapred.LineRecordReader reader = new org.apache.hadoop.mapred.LineRecordReader(
        new JobConf(conf), new org.apache.hadoop.mapred.FileSplit(path, start, length, new String[0]));
    try {
      LongWritable key = reader.createKey();
      Text value = reader.createValue();
      while (reader.next(key, value)) {
        lines.add(value.toString());
      }
    } finally {
      reader.close();
    }
    return lines;
  }

  /** The file's content as java.util.zip's GZIPInputStream reads it (every member). */
  static byte[] gunzip(java.nio.file.Path file) throws IOException {
    if (Files.size(file) == 0) {
      return new byte[0];
    }
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      return in.readAllBytes();
    }
  }

  /** The file's content as zstd-jni's ZstdInputStream reads it (every frame, skippable frames skipped). */
  static byte[] unzstd(java.nio.file.Path file) throws IOException {
    if (Files.size(file) == 0) {
      return new byte[0];
    }
    try (InputStream in = new ZstdInputStream(Files.newInputStream(file))) {
      return in.readAllBytes();
    }
  }

  /** Writes {@code content} as seekable zstd with frames of {@code frameData} bytes, in uneven pieces. */
  static java.nio.file.Path writeZstd(java.nio.file.Path file, byte[] content, int frameData) throws IOException {
    try (OutputStream out = new SeekableZstdOutputStream(Files.newOutputStream(file), 3, frameData)) {
      writeInPieces(out, content);
    }
    return file;
  }

  /**
   * A seekable zstd file's seek table as the format describes it, read from the end of the file: per frame
   * {compressed size, content size, checksum}; fails when the footer or the skippable frame around it is wrong.
   */
  static List<long[]> seekTable(byte[] file) {
    int n = file.length;
    if (le32(file, n - 4) != 0x8F92EAB1L) {
      throw new AssertionError("no seekable magic at the end");
    }
    int descriptor = file[n - 5] & 0xff;
    if (descriptor != 0x80) {
      throw new AssertionError("descriptor " + descriptor + " (expected checksums, reserved bits 0)");
    }
    int frames = (int) le32(file, n - 9);
    int content = frames * 12 + 9;
    int start = n - content - 8;
    if (le32(file, start) != 0x184D2A5EL || le32(file, start + 4) != content) {
      throw new AssertionError("no seek table skippable frame at " + start);
    }
    List<long[]> entries = new ArrayList<>();
    for (int f = 0; f < frames; f++) {
      int p = start + 8 + 12 * f;
      entries.add(new long[] {le32(file, p), le32(file, p + 4), le32(file, p + 8)});
    }
    return entries;
  }

  /** The offsets of a seekable zstd file's frames, from its seek table. */
  static List<Long> frameOffsets(byte[] file) {
    List<Long> offsets = new ArrayList<>();
    long p = 0;
    for (long[] e : seekTable(file)) {
      offsets.add(p);
      p += e[0];
    }
    return offsets;
  }

  static long le32(byte[] b, int i) {
    return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24;
  }

  /** Lines as Hadoop's default delimiter makes them (LF, CR or CR LF; a last line without one counts). */
  static List<String> lines(byte[] content) {
    List<String> lines = new ArrayList<>();
    int from = 0;
    int i = 0;
    while (i < content.length) {
      byte c = content[i];
      if (c == '\n' || c == '\r') {
        lines.add(new String(content, from, i - from, StandardCharsets.UTF_8));
        i += c == '\r' && i + 1 < content.length && content[i + 1] == '\n' ? 2 : 1;
        from = i;
      } else {
        i++;
      }
    }
    if (from < content.length) {
      lines.add(new String(content, from, content.length - from, StandardCharsets.UTF_8));
    }
    return lines;
  }

  /**
   * Text of about {@code size} bytes: lines of random lengths (empty ones, and one in 50 longer than
   * {@code longLine}), ended by {@code eol}.
   */
  static byte[] text(long seed, int size, int longLine, String eol) {
    Random random = new Random(seed);
    StringBuilder sb = new StringBuilder();
    int n = 0;
    while (sb.length() < size) {
      int len = random.nextInt(50) == 0 ? longLine + random.nextInt(longLine + 1) : random.nextInt(120);
      sb.append(n++).append(':');
      for (int i = 0; i < len; i++) {
        sb.append((char) ('a' + random.nextInt(26)));
      }
      sb.append(eol);
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Writes {@code content} as BGZF with blocks of {@code blockData} bytes. */
  static java.nio.file.Path writeBgzf(java.nio.file.Path file, byte[] content, int blockData) throws IOException {
    try (OutputStream out = new BgzfOutputStream(Files.newOutputStream(file), 6, blockData)) {
      writeInPieces(out, content);
    }
    return file;
  }

  /** Writes {@code content} in uneven pieces, as writers do. */
  private static void writeInPieces(OutputStream out, byte[] content) throws IOException {
    Random random = new Random(content.length);
    int off = 0;
    while (off < content.length) {
      int n = Math.min(content.length - off, 1 + random.nextInt(3000));
      out.write(content, off, n);
      off += n;
    }
  }

  /** The offsets of the file's blocks, found by following the BC sizes. */
  static List<Long> blockOffsets(byte[] file) {
    List<Long> offsets = new ArrayList<>();
    int p = 0;
    while (p < file.length) {
      offsets.add((long) p);
      int xlen = BgzfFormat.extraLength(file, p);
      int size = BgzfFormat.blockSize(file, p, BgzfFormat.FIXED_HEADER_SIZE + xlen);
      if (size <= 0) {
        throw new IllegalStateException("no block at " + p);
      }
      p += size;
    }
    return offsets;
  }

  /** Equal lists of lines, or a failure naming the first line that differs (not both lists). */
  static void assertSameLines(List<String> expected, List<String> actual, String what) {
    int n = Math.min(expected.size(), actual.size());
    for (int i = 0; i < n; i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        throw new AssertionError(what + ": line " + i + " differs (expected " + expected.size() + " lines, read "
            + actual.size() + "): expected '" + abbreviate(expected.get(i)) + "', read '" + abbreviate(actual.get(i))
            + "'");
      }
    }
    if (expected.size() != actual.size()) {
      throw new AssertionError(what + ": expected " + expected.size() + " lines, read " + actual.size());
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "... (" + s.length() + " chars)";
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
