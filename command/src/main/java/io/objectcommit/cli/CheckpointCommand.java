package io.objectcommit.cli;

import io.objectcommit.checkpoint.CheckpointExportException;
import io.objectcommit.checkpoint.CheckpointFileSystem;
import io.objectcommit.checkpoint.CheckpointImport;
import io.objectcommit.checkpoint.CheckpointImportException;
import io.objectcommit.checkpoint.CheckpointMaintenance;
import io.objectcommit.store.config.ConfigReader;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** {@code objectcommit checkpoint ls|verify|gc|import|export}: the checkpoint FileSystem's maintenance. */
final class CheckpointCommand implements Subcommand {

  static final String HELP = String.join("\n",
      "Usage: objectcommit checkpoint ls|verify|gc ckpt://<authority>/<path> [--min-age 1h] [--dry-run]",
      "       objectcommit checkpoint import s3a://<bucket>/<path>|file:///<path> ckpt://<authority>/<path>",
      "                  [--dry-run] [--force] [--idle 5m]",
      "       objectcommit checkpoint export ckpt://<authority>/<path> s3a://<bucket>/<path>",
      "                  [--dry-run] [--force] [--idle 5m]",
      "",
      "Inspects and maintains a checkpoint location of the checkpoint FileSystem.",
      "  ls       print the logical tree with sizes",
      "  verify   check every manifest and that every data object it names exists with its size (and, for an",
      "           imported file, its ETag as imported) (exit code 1 on problems)",
      "  gc       delete objects no manifest refers to (object stores) or stale temporary files (local paths);",
      "           on S3, also count the noncurrent versions and delete markers a versioned bucket keeps of the",
      "           checkpoint's objects (gc does not delete them: a lifecycle rule does; needs s3:ListBucketVersions)",
      "  import   adopt a stopped query's checkpoint on s3a:// (same bucket, S3 backend) or file:// (local-path",
      "           backend, same file system) as a new ckpt:// location without copying data: manifests name the",
      "           existing objects, which are never rewritten (S3), or every file is hard-linked (local path);",
      "           refuses a source that looks live, lacks a file its query needs to resume, or whose listing",
      "           lags (exit code 1); idempotent, and a second run resumes an interrupted one",
      "  export   write a stopped query's ckpt:// checkpoint back as a plain one on s3a:// (same bucket, S3",
      "           backend) that stock Spark reads: one server-side copy per file, none where the object already",
      "           has its name (back where it was imported from), metadata last; refuses a query that looks",
      "           live, lacks a file, or a target holding other objects (exit code 1); a second run resumes an",
      "           interrupted one. On the local-path backend it prints the file:// location (nothing to copy)",
      "Options:",
      "  --min-age DURATION   gc: only what is older than this (default 1h; 90s, 30m, 24h, 7d)",
      "  --dry-run            gc: print what would be deleted, delete nothing;",
      "                       import, export: print the plan (files, bytes, requests), write nothing",
      "  --force              import, export: go on although the checkpoint looks live (a warning says why)",
      "  --idle DURATION      import, export: the checkpoint looks live when a file of it is younger than this",
      "                       (default 5m)",
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
    return new CommandLine.Spec().valued("--min-age").flag("--dry-run").flag("--force").valued("--idle");
  }

  @Override
  public int run(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.isEmpty()) {
      throw new UsageException("expected ls, verify, gc, import or export and a ckpt:// path");
    }
    String action = args.get(0);
    if (!List.of("ls", "verify", "gc", "import", "export").contains(action)) {
      throw new UsageException("unknown action '" + action + "': expected ls, verify, gc, import or export");
    }
    if (action.equals("import")) {
      return runImport(line, out);
    }
    if (action.equals("export")) {
      return runExport(line, out);
    }
    if (args.size() != 2) {
      throw new UsageException(args.size() < 2 ? "expected a ckpt:// path after " + action
          : "unexpected arguments after the path: " + String.join(" ", args.subList(2, args.size())));
    }
    if (!action.equals("gc") && (line.flag("--dry-run") || !line.values("--min-age").isEmpty())) {
      throw new UsageException("--min-age applies to gc only, --dry-run to gc, import and export");
    }
    if (line.flag("--force") || !line.values("--idle").isEmpty()) {
      throw new UsageException("--force and --idle apply to import and export only");
    }
    Duration minAge = Durations.parse("--min-age", line.value("--min-age", "1h"));
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(args.get(1)), configuration(line))) {
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

  private static Configuration configuration(CommandLine line) throws UsageException {
    Configuration conf = line.configuration();
    conf.setIfUnset("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    return conf;
  }

  /** {@code checkpoint import SOURCE TARGET}: refused imports end with exit code 1 and each reason. */
  private int runImport(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.size() != 3) {
      throw new UsageException(args.size() < 3 ? "expected the source (s3a://bucket/path or file:///path) and"
          + " the target (ckpt://authority/path) after import"
          : "unexpected arguments after the target: " + String.join(" ", args.subList(3, args.size())));
    }
    CheckpointImport.Options options = moveOptions(line);
    URI source = new Path(args.get(1)).toUri();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(args.get(2)), configuration(line))) {
      m.importFrom(source, options, out);
      return 0;
    } catch (CheckpointImportException refused) {
      throw new CommandException(ObjectCommitCommand.FAILURE, refused.getMessage(), refused);
    }
  }

  /** {@code checkpoint export SOURCE TARGET}: refused exports end with exit code 1 and each reason. */
  private int runExport(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.size() != 3) {
      throw new UsageException(args.size() < 3 ? "expected the checkpoint (ckpt://authority/path) and the target"
          + " (s3a://bucket/path) after export"
          : "unexpected arguments after the target: " + String.join(" ", args.subList(3, args.size())));
    }
    CheckpointImport.Options options = moveOptions(line);
    URI target = new Path(args.get(2)).toUri();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(args.get(1)), configuration(line))) {
      m.exportTo(target, options, out);
      return 0;
    } catch (CheckpointExportException refused) {
      throw new CommandException(ObjectCommitCommand.FAILURE, refused.getMessage(), refused);
    }
  }

  /** The options of import and export. */
  private static CheckpointImport.Options moveOptions(CommandLine line) throws UsageException {
    if (!line.values("--min-age").isEmpty()) {
      throw new UsageException("--min-age applies to gc only");
    }
    Duration idle = Durations.parse("--idle", line.value("--idle", CheckpointImport.DEFAULT_IDLE_MINUTES + "m"));
    return new CheckpointImport.Options(line.flag("--dry-run"), line.flag("--force"), idle);
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
