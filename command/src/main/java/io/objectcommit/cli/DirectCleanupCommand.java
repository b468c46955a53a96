package io.objectcommit.cli;

import io.objectcommit.direct.DirectJobCleaner;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;

/** {@code objectcommit direct-cleanup}: removes what a direct-committer job that never committed left. */
final class DirectCleanupCommand implements Subcommand {

  static final String HELP = String.join("\n",
      "Usage: objectcommit direct-cleanup s3a://bucket/table (--list | --job JOB_ID ... | --all)",
      "",
      "Removes the files of direct-committer jobs that never committed (the driver died, or its abort failed),",
      "found from their task records under <table>/_objectcommit_direct/<job id>/. A job whose commit marker",
      "exists keeps its files; only its bookkeeping goes.",
      "Options:",
      "  --list         print the ids of the jobs with bookkeeping under the table",
      "  --job JOB_ID   clean this job (repeat, or give several ids after it)",
      "  --all          clean every listed job: only when no job is writing to the table",
      COMMON_OPTIONS);

  @Override
  public String name() {
    return "direct-cleanup";
  }

  @Override
  public String help() {
    return HELP;
  }

  @Override
  public CommandLine.Spec spec() {
    return new CommandLine.Spec().flag("--list").flag("--all").valued("--job");
  }

  @Override
  public int run(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.isEmpty()) {
      throw new UsageException("expected the table's path (s3a://bucket/table)");
    }
    List<String> jobs = new ArrayList<>(line.values("--job"));
    if (!jobs.isEmpty()) {
      jobs.addAll(args.subList(1, args.size()));
    } else if (args.size() > 1) {
      throw new UsageException("unexpected arguments after the path: " + String.join(" ", args.subList(1,
          args.size())) + " (job ids go after --job)");
    }
    int modes = (line.flag("--list") ? 1 : 0) + (line.flag("--all") ? 1 : 0) + (jobs.isEmpty() ? 0 : 1);
    if (modes != 1) {
      throw new UsageException(modes == 0 ? "expected one of --list, --job JOB_ID or --all"
          : "--list, --job and --all exclude each other: give one");
    }
    try (DirectJobCleaner cleaner = DirectJobCleaner.open(new Path(args.get(0)), line.configuration())) {
      if (line.flag("--list")) {
        cleaner.pendingJobs().forEach(out::println);
        return 0;
      }
      List<String> pending = cleaner.pendingJobs();
      if (line.flag("--all")) {
        jobs.addAll(pending);
      }
      int cleaned = 0;
      List<String> unknown = new ArrayList<>();
      for (String job : jobs) {
        if (!pending.contains(job)) { // a mistyped id: nothing of it to clean, and saying "cleaned" would hide it
          unknown.add(job);
          out.println("job " + job + ": no bookkeeping under " + cleaner.location()
              + " (not a job with leftovers there; see --list)");
          continue;
        }
        int n = cleaner.clean(job);
        cleaned++;
        out.println("job " + job + ": deleted " + n + " file(s) and its bookkeeping under " + cleaner.location());
      }
      out.println(cleaned + " job(s) cleaned" + (unknown.isEmpty() ? "" : ", " + unknown.size() + " unknown"));
      return unknown.isEmpty() ? 0 : 1;
    }
  }
}
