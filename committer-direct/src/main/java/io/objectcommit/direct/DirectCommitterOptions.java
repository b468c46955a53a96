package io.objectcommit.direct;

import static io.objectcommit.direct.DirectCommitterConstants.BUFFER_DIR;
import static io.objectcommit.direct.DirectCommitterConstants.BUFFER_DIR_DEFAULT;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION_CLASSIC;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION_DEFAULT;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION_FAIL;
import static io.objectcommit.direct.DirectCommitterConstants.STORE_FACTORY;
import static io.objectcommit.direct.DirectCommitterConstants.STORE_FACTORY_DEFAULT;
import static io.objectcommit.direct.DirectCommitterConstants.SUCCESS_MAX_FILENAMES;
import static io.objectcommit.direct.DirectCommitterConstants.SUCCESS_MAX_FILENAMES_DEFAULT;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/** The direct committer's settings, read and checked once; immutable. */
public final class DirectCommitterOptions {

  /** What the speculation guard does when speculation is on. */
  public enum OnSpeculation {
    /** Fail the job at setup. */
    FAIL,
    /** Commit the job with the classic committer, with a WARN. */
    CLASSIC
  }

  private final OnSpeculation onSpeculation;
  private final Path bufferDir;
  private final int successMaxFilenames;
  private final String storeFactory;

  private DirectCommitterOptions(OnSpeculation onSpeculation, Path bufferDir, int successMaxFilenames,
      String storeFactory) {
    this.onSpeculation = onSpeculation;
    this.bufferDir = bufferDir;
    this.successMaxFilenames = successMaxFilenames;
    this.storeFactory = storeFactory;
  }

  /**
   * Reads the options.
   *
   * @throws IllegalArgumentException naming the key of a bad value
   */
  public static DirectCommitterOptions from(Configuration conf) {
    String spec = conf.getTrimmed(ON_SPECULATION, ON_SPECULATION_DEFAULT).toLowerCase(Locale.ROOT);
    OnSpeculation on;
    if (ON_SPECULATION_FAIL.equals(spec)) {
      on = OnSpeculation.FAIL;
    } else if (ON_SPECULATION_CLASSIC.equals(spec)) {
      on = OnSpeculation.CLASSIC;
    } else {
      throw bad(ON_SPECULATION, spec, "'" + ON_SPECULATION_FAIL + "' or '" + ON_SPECULATION_CLASSIC + "'");
    }
    String dir = conf.getTrimmed(BUFFER_DIR, BUFFER_DIR_DEFAULT);
    Path buffer;
    try {
      buffer = dir.isEmpty() ? Paths.get(System.getProperty("java.io.tmpdir")) : Paths.get(dir);
    } catch (RuntimeException e) {
      throw bad(BUFFER_DIR, dir, "a local directory");
    }
    String max = conf.getTrimmed(SUCCESS_MAX_FILENAMES, String.valueOf(SUCCESS_MAX_FILENAMES_DEFAULT));
    int maxNames;
    try {
      maxNames = Integer.parseInt(max);
    } catch (NumberFormatException e) {
      throw bad(SUCCESS_MAX_FILENAMES, max, "a number of files, 0 or more");
    }
    if (maxNames < 0) {
      throw bad(SUCCESS_MAX_FILENAMES, max, "a number of files, 0 or more");
    }
    return new DirectCommitterOptions(on, buffer, maxNames, conf.getTrimmed(STORE_FACTORY, STORE_FACTORY_DEFAULT));
  }

  private static IllegalArgumentException bad(String key, String value, String expected) {
    return new IllegalArgumentException("Invalid value '" + value + "' of " + key + ": expected " + expected);
  }

  public OnSpeculation onSpeculation() {
    return onSpeculation;
  }

  /** Where output files are buffered until they are closed. */
  public Path bufferDir() {
    return bufferDir;
  }

  public int successMaxFilenames() {
    return successMaxFilenames;
  }

  /** The store factory class name, empty for the default. */
  public String storeFactory() {
    return storeFactory;
  }

  @Override
  public String toString() {
    return "on-speculation=" + onSpeculation.name().toLowerCase(Locale.ROOT) + ", buffer.dir=" + bufferDir
        + ", success.max-filenames=" + successMaxFilenames;
  }
}
