package io.objectcommit.direct;

import io.objectcommit.direct.impl.DirectCommitEngine;
import io.objectcommit.fs.ObjectStore;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Removes the files of a job that never committed (its driver died, or its abort failed), using the job's task
 * records under {@code <output>/_objectcommit_direct/<job id>/}:
 *
 * <pre>
 *   java -cp "objectcommit-committer-direct.jar:objectcommit-fs-core.jar:$(hadoop classpath)" \
 *     io.objectcommit.direct.DirectJobCleaner [-Dkey=value ...] s3a://bucket/table [JOB_ID ...|--list|--all]
 * </pre>
 *
 * {@code --list} prints the job ids with bookkeeping under the table; {@code --all} cleans all of them. A job whose
 * commit marker exists (it finished committing but not its clean-up) keeps its files; only its bookkeeping goes.
 * {@code -D} options set Hadoop configuration keys (for example the {@code fs.s3a.*} connection keys) on top of
 * the {@code core-site.xml} on the class path. Exit status: 0 done, 1 failure, 2 bad arguments.
 */
public final class DirectJobCleaner {

  private DirectJobCleaner() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Configuration conf = new Configuration();
    List<String> rest = new ArrayList<>();
    for (String a : args) {
      if (a.startsWith("-D") && a.indexOf('=') > 2) {
        conf.set(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
      } else {
        rest.add(a);
      }
    }
    if (rest.size() < 2) {
      err.println("usage: DirectJobCleaner [-Dkey=value ...] s3a://bucket/output (JOB_ID ...|--list|--all)");
      return 2;
    }
    try {
      DirectCommitEngine engine = new DirectCommitEngine(new Path(rest.get(0)), conf, "DirectJobCleaner");
      try (ObjectStore store = engine.openStore(conf)) {
        List<String> pending = engine.pendingJobs(store);
        List<String> jobs = new ArrayList<>();
        if (rest.contains("--list")) {
          pending.forEach(out::println);
          return 0;
        } else if (rest.contains("--all")) {
          jobs.addAll(pending);
        } else {
          jobs.addAll(rest.subList(1, rest.size()));
        }
        for (String job : jobs) {
          int n = engine.cleanup(store, job, true);
          out.println("job " + job + ": deleted " + n + " file(s) and its bookkeeping under " + engine.location());
        }
      }
      return 0;
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return 2;
    } catch (Exception e) {
      err.println("DirectJobCleaner failed: " + e);
      return 1;
    }
  }
}
