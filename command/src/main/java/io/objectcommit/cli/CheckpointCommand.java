package io.objectcommit.cli;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import io.objectcommit.checkpoint.CheckpointMaintenance;
import io.objectcommit.store.config.ConfigReader;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** {@code objectcommit checkpoint ls|verify|gc}: the checkpoint FileSystem's maintenance. */
final class CheckpointCommand implements Subcommand {

  static final String HELP = String.join("\n",
      "Usage: objectcommit checkpoint ls|verify|gc ckpt://<authority>/<path> [--min-age 1h] [--dry-run]",
      "",
      "Inspects and maintains a checkpoint location of the checkpoint FileSystem.",
      "  ls       print the logical tree with sizes",
      "  verify   check every manifest and that every data object it names exists (exit code 1 on problems)",
      "  gc       delete objects no manifest refers to (object stores) or stale temporary files (local paths);",
      "           on S3, also count the noncurrent versions and delete markers a versioned bucket keeps of the",
      "           checkpoint's objects (gc does not delete them: a lifecycle rule does; needs s3:ListBucketVersions)",
      "Options:",
      "  --min-age DURATION   gc: only what is older than this (default 1h; 90s, 30m, 24h, 7d)",
      "  --dry-run            gc: print what would be deleted, delete nothing",
      "fs.ckpt.impl defaults to " + CheckpointFileSystem.class.getName() + ".",
      COMMON_OPTIONS);

  @Override
  public String name() {
    return "checkpoint";
  }

  @Override
  public String help() {
    return HELP;
  }

  @Override
  public CommandLine.Spec spec() {
    return new CommandLine.Spec().valued("--min-age").flag("--dry-run");
  }

  @Override
  public int run(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.isEmpty()) {
      throw new UsageException("expected ls, verify or gc and a ckpt:// path");
    }
    String action = args.get(0);
    if (!List.of("ls", "verify", "gc").contains(action)) {
      throw new UsageException("unknown action '" + action + "': expected ls, verify or gc");
    }
    if (args.size() != 2) {
      throw new UsageException(args.size() < 2 ? "expected a ckpt:// path after " + action
          : "unexpected arguments after the path: " + String.join(" ", args.subList(2, args.size())));
    }
    if (!action.equals("gc") && (line.flag("--dry-run") || !line.values("--min-age").isEmpty())) {
      throw new UsageException("--min-age and --dry-run apply to gc only");
    }
    Duration minAge = Durations.parse("--min-age", line.value("--min-age", "1h"));
    Configuration conf = line.configuration();
    conf.setIfUnset("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(args.get(1)), conf)) {
      switch (action) {
        case "ls":
          m.ls(out);
          return 0;
        case "verify":
          return m.verify(out).isEmpty() ? 0 : 1;
        default:
          m.gc(minAge, line.flag("--dry-run"), out);
          return 0;
      }
    }
  }

  /** Durations on the command line: the units the configuration keys take. */
  static final class Durations {
    private Durations() {
    }

    static Duration parse(String option, String value) throws UsageException {
      try {
        return Duration.ofMillis(ConfigReader.parseDurationMs(value));
      } catch (IllegalArgumentException e) {
        throw new UsageException(option + " " + value + ": expected a duration such as 90s, 30m, 24h or 7d");
      }
    }
  }
}
