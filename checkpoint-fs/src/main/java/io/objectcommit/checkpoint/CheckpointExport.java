package io.objectcommit.checkpoint;

import java.util.List;

/**
 * {@code objectcommit checkpoint export}: writing a stopped query's {@code ckpt://} checkpoint back as a plain one at
 * {@code s3a://bucket/prefix}, which stock Spark reads, so that a user can leave the checkpoint FileSystem. Run by
 * {@link CheckpointMaintenance#exportTo} with the options of an import ({@link CheckpointImport.Options}); the
 * protocol is in docs/checkpoint-format.md, "Exported checkpoints".
 */
public final class CheckpointExport {

  /** Server-side copies an export sends at once: {@value}. */
  public static final int COPY_THREADS = 16;

  private CheckpointExport() {
  }

  /** What an export did (or would do, on a dry run). */
  public static final class Result {
    /** How the export ended. */
    public enum Outcome {
      /** Every file is now at its name under the target. */
      EXPORTED,
      /** Every file already was at its name under the target (a second run): nothing copied. */
      ALREADY_EXPORTED,
      /** A dry run: the plan was printed, nothing copied. */
      PLANNED,
      /**
       * The local-path backend: the checkpoint's directory already is a plain checkpoint ({@code file://}), nothing
       * copied.
       */
      IN_PLACE
    }

    private final Outcome outcome;
    private final long files;
    private final long bytes;
    private final long copied;
    private final long inPlace;
    private final long alreadyThere;
    private final List<String> warnings;

    public Result(Outcome outcome, long files, long bytes, long copied, long inPlace, long alreadyThere,
        List<String> warnings) {
      this.outcome = outcome;
      this.files = files;
      this.bytes = bytes;
      this.copied = copied;
      this.inPlace = inPlace;
      this.alreadyThere = alreadyThere;
      this.warnings = List.copyOf(warnings);
    }

    public Outcome outcome() {
      return outcome;
    }

    /** Files of the checkpoint. */
    public long files() {
      return files;
    }

    public long bytes() {
      return bytes;
    }

    /** Server-side copies this run made (or would make, on a dry run). */
    public long copied() {
      return copied;
    }

    /** Files whose object already has its name under the target (adopted from there by an import): no copy. */
    public long inPlace() {
      return inPlace;
    }

    /** Files an earlier run of this export had copied (a resumed export). */
    public long alreadyThere() {
      return alreadyThere;
    }

    /** What {@code --force} overrode. */
    public List<String> warnings() {
      return warnings;
    }
  }
}
