package io.objectcommit.direct;

import static io.objectcommit.direct.DirectCommitterConstants.BUFFER_DIR;
import static io.objectcommit.direct.DirectCommitterConstants.BUFFER_DIR_DEFAULT;
import static io.objectcommit.direct.DirectCommitterConstants.COMMIT_THREADS;
import static io.objectcommit.direct.DirectCommitterConstants.COMMIT_THREADS_DEFAULT;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION_CLASSIC;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION_DEFAULT;
import static io.objectcommit.direct.DirectCommitterConstants.ON_SPECULATION_FAIL;
import static io.objectcommit.direct.DirectCommitterConstants.SUCCESS_MAX_FILENAMES;
import static io.objectcommit.direct.DirectCommitterConstants.SUCCESS_MAX_FILENAMES_DEFAULT;

import io.objectcommit.store.CompareAndSwap;
import io.objectcommit.store.config.ConfigReader;
import java.nio.file.InvalidPathException;
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
  private final int casAttempts;
  private final int commitThreads;

  private DirectCommitterOptions(ConfigReader r) {
    this.onSpeculation = OnSpeculation.valueOf(r.getChoice(ON_SPECULATION, ON_SPECULATION_DEFAULT,
        ON_SPECULATION_FAIL, ON_SPECULATION_CLASSIC).toUpperCase(Locale.ROOT));
    String dir = r.get(BUFFER_DIR, BUFFER_DIR_DEFAULT);
    try {
      this.bufferDir = dir.isEmpty() ? Paths.get(System.getProperty("java.io.tmpdir")) : Paths.get(dir);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("Invalid value '" + dir + "' of " + r.effectiveKey(BUFFER_DIR)
          + ": expected a local directory", e);
    }
    this.successMaxFilenames = r.getInt(SUCCESS_MAX_FILENAMES, SUCCESS_MAX_FILENAMES_DEFAULT, 0, 1_000_000);
    this.casAttempts = CompareAndSwap.attempts(r);
    this.commitThreads = r.getInt(COMMIT_THREADS, COMMIT_THREADS_DEFAULT, 1, 1024);
  }

  /**
   * Reads the options for a destination bucket (per-bucket overrides such as
   * {@code fs.objectcommit.bucket.<bucket>.direct.on-speculation} win).
   *
   * @throws IllegalArgumentException naming the key of a bad value
   */
  public static DirectCommitterOptions from(Configuration conf, String bucket) {
    return new DirectCommitterOptions(new ConfigReader(conf, bucket));
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

  /** Attempts of one compare-and-swap change of a task record ({@link StoreConstants#CAS_ATTEMPTS}). */
  public int casAttempts() {
    return casAttempts;
  }

  /** Parallel requests of job commit and job abort (reading task records). */
  public int commitThreads() {
    return commitThreads;
  }

  @Override
  public String toString() {
    return "on-speculation=" + onSpeculation.name().toLowerCase(Locale.ROOT) + ", buffer.dir=" + bufferDir
        + ", success.max-filenames=" + successMaxFilenames + ", commit.threads=" + commitThreads;
  }
}
