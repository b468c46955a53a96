package io.objectcommit.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code objectcommit}: the one command for every maintenance task (the main class of the bundle jar, run by
 * {@code bin/objectcommit}).
 *
 * <pre>
 * objectcommit checkpoint ls|verify|gc ckpt://&lt;authority&gt;/&lt;path&gt; [--min-age 1h] [--dry-run]
 * objectcommit checkpoint import s3a://&lt;bucket&gt;/&lt;path&gt;|file:///&lt;path&gt;
 *     ckpt://&lt;authority&gt;/&lt;path&gt; [--dry-run] [--force]
 * objectcommit checkpoint export ckpt://&lt;authority&gt;/&lt;path&gt; s3a://&lt;bucket&gt;/&lt;path&gt;
 *     [--dry-run] [--force]
 * objectcommit direct-cleanup s3a://bucket/table (--list | --job JOB_ID ... | --all)
 * objectcommit store check s3a://bucket/prefix [--all]
 * objectcommit uploads list|abort s3a://bucket/prefix [--older-than DURATION]
 * objectcommit cache stats|clear [s3a://bucket]
 * </pre>
 *
 * Exit codes: 0 done, 1 failure, 2 bad usage, 3 the store could not be checked ({@code store check}).
 */
public final class ObjectCommitCommand {

  private static final Logger LOG = LoggerFactory.getLogger(ObjectCommitCommand.class);

  /** Exit code: done. */
  public static final int DONE = 0;
  /** Exit code: the operation failed (or found problems). */
  public static final int FAILURE = 1;
  /** Exit code: the command line is wrong. */
  public static final int USAGE = 2;
  /** Exit code: {@code store check} could not run (no bucket, refused, endpoint down). */
  public static final int UNAVAILABLE = 3;

  static final Map<String, Subcommand> SUBCOMMANDS = new LinkedHashMap<>();

  static {
    for (Subcommand s : List.of(new CheckpointCommand(), new DirectCleanupCommand(), new StoreCommand(),
        new UploadsCommand(), new CacheCommand(), new RecompressCommand(), new GzipIndexCommand())) {
      SUBCOMMANDS.put(s.name(), s);
    }
  }

  static final String HELP = String.join("\n",
      "Usage: objectcommit <subcommand> [options]",
      "",
      "Subcommands:",
      "  checkpoint ls|verify|gc ckpt://<authority>/<path> [--min-age 1h] [--dry-run]",
      "  checkpoint import s3a://<bucket>/<path>|file:///<path> ckpt://<authority>/<path> [--dry-run] [--force]",
      "  checkpoint export ckpt://<authority>/<path> s3a://<bucket>/<path> [--dry-run] [--force]",
      "  direct-cleanup s3a://bucket/table (--list | --job JOB_ID ... | --all)",
      "  store check s3a://bucket/prefix [--all]",
      "  uploads list|abort s3a://bucket/prefix [--older-than DURATION]",
      "  cache stats|clear [s3a://bucket]",
      "  recompress s3a://bucket/key|file:///path --to bgzf|zstd [--in-place] [--overwrite] [--dry-run]",
      "  gzip-index s3a://bucket/key|file:///path",
      "Run `objectcommit <subcommand> --help` for each one's options.",
      Subcommand.COMMON_OPTIONS);

  private ObjectCommitCommand() {
  }

  /** Where the subcommand's name is: the first word that is neither a common option nor its value; or -1. */
  static int subcommandIndex(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("-D") || a.equals("--conf")) {
        i++;
      } else if (!a.startsWith("-")) {
        return i;
      }
    }
    return -1;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println("objectcommit: expected a subcommand: " + String.join(", ", SUBCOMMANDS.keySet()));
      err.println(HELP);
      return USAGE;
    }
    int at = subcommandIndex(args);
    if (at < 0 || args[at].equals("help")) {
      if (at < 0 && !Arrays.asList(args).contains("--help") && !Arrays.asList(args).contains("-h")) {
        err.println("objectcommit: expected a subcommand: " + String.join(", ", SUBCOMMANDS.keySet()));
        err.println(HELP);
        return USAGE;
      }
      out.println(HELP);
      return DONE;
    }
    Subcommand sub = SUBCOMMANDS.get(args[at]);
    if (sub == null) {
      err.println("objectcommit: unknown subcommand '" + args[at] + "': expected "
          + String.join(", ", SUBCOMMANDS.keySet()) + " (run `objectcommit --help`)");
      return USAGE;
    }
    String name = "objectcommit " + sub.name();
    try {
      // common options may also come before the subcommand: objectcommit -D k=v uploads list ...
      List<String> rest = new ArrayList<>(Arrays.asList(args));
      rest.remove(at);
      CommandLine line = CommandLine.parse(rest.toArray(new String[0]), sub.spec());
      if (line.help()) {
        out.println(sub.help());
        return DONE;
      }
      return sub.run(line, out);
    } catch (UsageException e) {
      err.println(name + ": " + e.getMessage());
      err.println("run `" + name + " --help` for usage");
      return USAGE;
    } catch (CommandException e) {
      LOG.debug("{}: {}", name, e.getMessage(), e);
      err.println(name + ": " + e.getMessage());
      return e.exitCode();
    } catch (IllegalArgumentException e) {
      // a bad path or a bad configuration value (the message names the key)
      LOG.debug("{}: bad argument", name, e);
      err.println(name + ": " + e.getMessage());
      return USAGE;
    } catch (Exception e) {
      LOG.debug("{} failed", name, e);
      err.println(name + " failed: " + e);
      for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
        err.println("  caused by: " + c);
      }
      return FAILURE;
    }
  }
}
