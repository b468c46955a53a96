package io.objectcommit.checkpoint;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code objectcommit checkpoint import}: adopting a stopped query's checkpoint (at {@code s3a://bucket/prefix}) into
 * the checkpoint FileSystem ({@code ckpt://bucket/path}) without copying data: the manifests written name the
 * existing objects, which are never rewritten. Run by {@link CheckpointMaintenance#importFrom}. Its options and
 * result; the protocol is in docs/checkpoint-format.md, "Adopted checkpoints".
 */
public final class CheckpointImport {

  /** The default of {@code --idle}: {@value} minutes with no object written under the source. */
  public static final long DEFAULT_IDLE_MINUTES = 5;

  private CheckpointImport() {
  }

  /** What an import may do. Immutable. */
  public static final class Options {
    private final boolean dryRun;
    private final boolean force;
    private final Duration idle;

    /**
     * @param dryRun print the plan, write nothing
     * @param force import although the source looks live (a warning names why it does)
     * @param idle how long the source must have had no object written, for it to look stopped
     */
    public Options(boolean dryRun, boolean force, Duration idle) {
      this.dryRun = dryRun;
      this.force = force;
      this.idle = Objects.requireNonNull(idle, "idle");
      if (idle.isNegative()) {
        throw new IllegalArgumentException("idle must not be negative: " + idle);
      }
    }

    /** The defaults: write, refuse a live source, {@value #DEFAULT_IDLE_MINUTES} minutes idle. */
    public static Options defaults() {
      return new Options(false, false, Duration.ofMinutes(DEFAULT_IDLE_MINUTES));
    }

    public boolean dryRun() {
      return dryRun;
    }

    public boolean force() {
      return force;
    }

    public Duration idle() {
      return idle;
    }
  }

  /** What an import did (or would do, on a dry run). */
  public static final class Result {
    /** What was found: how the import ended. */
    public enum Outcome {
      /** The manifests were written and the target now names the source's files. */
      IMPORTED,
      /** The target already was this import (a second run, or one a concurrent run finished): nothing written. */
      ALREADY_IMPORTED,
      /** A dry run: the plan was printed, nothing written. */
      PLANNED,
      /**
       * The local-path backend's target directory is the source itself: checked, nothing written (the backend names
       * the files where they are).
       */
      IN_PLACE
    }

    private final Outcome outcome;
    private final long files;
    private final long bytes;
    private final long directories;
    private final long manifestsWritten;
    private final List<String> warnings;

    public Result(Outcome outcome, long files, long bytes, long directories, long manifestsWritten,
        List<String> warnings) {
      this.outcome = outcome;
      this.files = files;
      this.bytes = bytes;
      this.directories = directories;
      this.manifestsWritten = manifestsWritten;
      this.warnings = List.copyOf(warnings);
    }

    public Outcome outcome() {
      return outcome;
    }

    /** Files adopted (or to be). */
    public long files() {
      return files;
    }

    public long bytes() {
      return bytes;
    }

    /** Directories of the imported tree, its top included: one manifest each. */
    public long directories() {
      return directories;
    }

    /**
     * Manifests this run wrote (fewer than {@link #directories()} when it resumed an interrupted run); on the
     * local-path backend, the hard links it made (fewer than {@link #files()} when it resumed one).
     */
    public long manifestsWritten() {
      return manifestsWritten;
    }

    /** What {@code --force} overrode. */
    public List<String> warnings() {
      return warnings;
    }
  }
}
