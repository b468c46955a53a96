package io.objectcommit.codecs.impl;

import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * The file a Spark task is reading: a Hadoop codec is handed a stream, never its path, but Spark records the file
 * and the range of the split it reads in a thread-local ({@code InputFileBlockHolder}, behind
 * {@code input_file_name()}) before it opens the split, in {@code FileScanRDD} ({@code spark.read.text/csv/json}) and
 * in {@code HadoopRDD}/{@code NewHadoopRDD} ({@code sc.textFile}). It is read by reflection (the codecs do not link
 * against Spark) and believed only when its range is the split the codec opens. Outside Spark there is none.
 */
final class SparkInputFile {

  private static final Method PATH;
  private static final Method START;
  private static final Method LENGTH;

  static {
    Method path = null;
    Method start = null;
    Method length = null;
    try {
      Class<?> holder = Class.forName("org.apache.spark.rdd.InputFileBlockHolder");
      path = holder.getMethod("getInputFilePath");
      start = holder.getMethod("getStartOffset");
      length = holder.getMethod("getLength");
    } catch (ReflectiveOperationException | LinkageError notSpark) {
      path = null;
    }
    PATH = path;
    START = start;
    LENGTH = length;
  }

  private SparkInputFile() {
  }

  /** The file whose split {@code [start, end)} this thread is opening in a Spark task, if Spark says so. */
  static Optional<Path> of(long start, long end) {
    if (PATH == null) {
      return Optional.empty();
    }
    try {
      Object file = PATH.invoke(null);
      long s = (Long) START.invoke(null);
      long l = (Long) LENGTH.invoke(null);
      String name = file == null ? "" : file.toString();
      if (name.isEmpty() || s != start || s + l != end) {
        return Optional.empty();
      }
      return Optional.of(path(name));
    } catch (ReflectiveOperationException e) {
      return Optional.empty();
    }
  }

  /** FileScanRDD records the URI's string (encoded), HadoopRDD a Path's string: both are read alike. */
  private static Path path(String name) {
    try {
      return new Path(new URI(name));
    } catch (URISyntaxException | IllegalArgumentException notAUri) {
      return new Path(name);
    }
  }
}
