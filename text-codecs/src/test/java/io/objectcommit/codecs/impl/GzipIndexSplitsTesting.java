package io.objectcommit.codecs.impl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.rdd.InputFileBlockHolder$;

/** The split reading of this package's tests, for the codec API's tests ({@code GzipIndexesTest}). */
public final class GzipIndexSplitsTesting {

  private GzipIndexSplitsTesting() {
  }

  /** What the splits of a file read. */
  public record Read(List<String> lines, int splitsWithRecords) {
  }

  /** The BGZF codec registered and taking {@code .gz}. */
  public static Configuration conf() {
    return SplitReading.conf(true);
  }

  /** Text of about {@code size} bytes. */
  public static byte[] text(long seed, int size) {
    return SplitReading.text(seed, size, 2_000, "\n");
  }

  /**
   * Reads {@code file} in splits of {@code splitSize} with Hadoop's LineRecordReader; with {@code asSpark}, each
   * split's file and range are recorded first as a Spark task records them (FileScanRDD: the URI's string).
   */
  public static Read read(Configuration conf, Path file, long splitSize, boolean asSpark) throws IOException {
    long length = Files.size(file);
    List<long[]> splits = new ArrayList<>();
    for (long s = 0; s < length; s += splitSize) {
      splits.add(new long[] {s, Math.min(splitSize, length - s)});
    }
    try {
      SplitReading.Result r = SplitReading.readSplits(conf, file, splits, false, s -> {
        if (asSpark) {
          InputFileBlockHolder$.MODULE$.set(file.toUri().toString(), s[0], s[1]);
        } else {
          InputFileBlockHolder$.MODULE$.unset();
        }
      });
      return new Read(r.lines, r.splitsWithRecords());
    } finally {
      InputFileBlockHolder$.MODULE$.unset();
    }
  }

  /** Every line of {@code content}, in order, once. */
  public static void assertSameLines(byte[] content, List<String> lines) {
    SplitReading.assertSameLines(SplitReading.lines(content), lines, "lines");
  }
}
