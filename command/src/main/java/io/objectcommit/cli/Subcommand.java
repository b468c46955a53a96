package io.objectcommit.cli;

import java.io.PrintStream;

/** One subcommand of {@code objectcommit}: its name, its options, its help text and what it does. */
interface Subcommand {

  /** The word after {@code objectcommit}. */
  String name();

  /** The text {@code objectcommit <name> --help} prints (also in docs/user-guide.md, checked by a test). */
  String help();

  /** The options it takes besides the common ones. */
  CommandLine.Spec spec();

  /**
   * Runs it.
   *
   * @return the exit code: 0 done, 1 failure (for example problems found)
   * @throws UsageException the arguments are wrong (exit code 2)
   * @throws Exception any failure (exit code 1)
   */
  int run(CommandLine line, PrintStream out) throws Exception;

  /** The lines about the common options, the same in every help text. */
  String COMMON_OPTIONS = String.join("\n",
      "Common options:",
      "  -D key=value, -Dkey=value   set a Hadoop configuration key (wins over any file)",
      "  --conf FILE                 add a Hadoop configuration file (a core-site.xml)",
      "  --help                      print this help",
      "The fs.s3a.* connection keys are read as a Spark job reads them (core-site.xml on the class path,",
      "--conf files, -D). Exit codes: 0 done, 1 failure, 2 bad usage.");
}
