package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.TestTags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line without a store: parsing, --help, usage errors and their exit codes. */
@Tag(TestTags.COMMAND)
class ObjectCommitCommandTest {

  private static final CommandLine.Spec NONE = new CommandLine.Spec();

  @Test
  void bothDefineSyntaxesAndConfFiles(@TempDir Path dir) throws Exception {
    Path site = dir.resolve("core-site.xml");
    Files.writeString(site, "<?xml version=\"1.0\"?><configuration>"
        + "<property><name>fs.s3a.endpoint</name><value>http://127.0.0.1:4566</value></property>"
        + "<property><name>fs.s3a.path.style.access</name><value>true</value></property>"
        + "</configuration>");
    CommandLine line = CommandLine.parse(new String[] {"-D", "fs.s3a.access.key=AK", "ls",
        "-Dfs.s3a.secret.key=S=K", "--conf", site.toString(), "-Dfs.s3a.path.style.access=false", "x"}, NONE);
    Configuration conf = line.configuration();
    assertEquals("AK", conf.get("fs.s3a.access.key"));
    assertEquals("S=K", conf.get("fs.s3a.secret.key"), "only the first '=' splits");
    assertEquals("http://127.0.0.1:4566", conf.get("fs.s3a.endpoint"), "from --conf");
    assertEquals("false", conf.get("fs.s3a.path.style.access"), "-D wins over --conf");
    assertEquals(List.of("ls", "x"), line.positional());
    assertEquals("true", CommandLine.parse(new String[] {"--conf=" + site}, NONE).configuration()
        .get("fs.s3a.path.style.access"), "--conf=FILE");
  }

  @Test
  void subcommandOptions() throws Exception {
    CommandLine.Spec spec = new CommandLine.Spec().valued("--job").flag("--all");
    CommandLine line = CommandLine.parse(new String[] {"t", "--job", "a", "--job=b", "--all"}, spec);
    assertEquals(List.of("a", "b"), line.values("--job"));
    assertTrue(line.flag("--all"));
    assertThrows(UsageException.class, () -> line.value("--job", null), "given twice");
    assertThrows(UsageException.class, () -> CommandLine.parse(new String[] {"--job"}, spec));
    assertThrows(UsageException.class, () -> CommandLine.parse(new String[] {"--all=yes"}, spec));
    assertEquals(List.of("--all"), CommandLine.parse(new String[] {"--", "--all"}, spec).positional());
  }

  @Test
  void topLevelHelpAndUsage() {
    CommandRun help = CommandRun.of("--help");
    assertEquals(0, help.code);
    assertEquals(ObjectCommitCommand.HELP + "\n", help.out);
    CommandRun none = CommandRun.of();
    assertEquals(2, none.code);
    assertTrue(none.err.contains("expected a subcommand: checkpoint, direct-cleanup, store, uploads"), none.err);
    CommandRun unknown = CommandRun.of("-D", "a=b", "purge");
    assertEquals(2, unknown.code);
    assertTrue(unknown.err.contains("unknown subcommand 'purge'"), unknown.err);
  }

  @Test
  void commonOptionsMayComeBeforeTheSubcommand() {
    CommandRun run = CommandRun.of("-D", "fs.s3a.endpoint=x", "-Dk=v", "--conf", "/no/such/file", "uploads", "list");
    assertEquals(2, run.code, run.toString());
    assertTrue(run.err.startsWith("objectcommit uploads: --conf /no/such/file: no such file"), run.toString());
    assertEquals(0, CommandRun.of("-Dk=v", "--help").code);
  }

  @ParameterizedTest
  @ValueSource(strings = {"checkpoint", "direct-cleanup", "store", "uploads"})
  void helpPerSubcommand(String name) {
    CommandRun run = CommandRun.of(name, "ls", "--help", "-Dx=y");
    assertEquals(0, run.code, run.toString());
    assertEquals(ObjectCommitCommand.SUBCOMMANDS.get(name).help() + "\n", run.out);
    assertTrue(run.out.startsWith("Usage: objectcommit " + name + " "), run.out);
    assertTrue(run.out.contains("-D key=value, -Dkey=value") && run.out.contains("--conf FILE"), run.out);
  }

  /** Each usage error: exit code 2 and a message that says what was wrong. */
  @ParameterizedTest
  @ValueSource(strings = {
      "checkpoint|expected ls, verify, gc, import or export",
      "checkpoint list ckpt://b/q|unknown action 'list': expected ls, verify, gc, import or export",
      "checkpoint ls|expected a ckpt:// path after ls",
      "checkpoint ls ckpt://b/q extra|unexpected arguments after the path: extra",
      "checkpoint ls ckpt://b/q --dry-run|--min-age applies to gc only, --dry-run to gc, import and export",
      "checkpoint gc ckpt://b/q --min-age soon|--min-age soon: expected a duration",
      "checkpoint gc ckpt://b/q --min-age|--min-age needs a value",
      "checkpoint ls ckpt://b/q --force|--force and --idle apply to import and export only",
      "checkpoint ls ckpt://b/q --verbose|unknown option --verbose (options here: --conf, --dry-run, --force, --help,"
          + " --idle, --min-age, -D)",
      "checkpoint import s3a://b/q|expected the source (s3a://bucket/path or file:///path) and the target"
          + " (ckpt://authority/path) after import",
      "checkpoint import s3a://b/q ckpt://b/q x|unexpected arguments after the target: x",
      "checkpoint import s3a://b/q ckpt://b/q --min-age 1h|--min-age applies to gc only",
      "checkpoint import s3a://b/q ckpt://b/q --idle soon|--idle soon: expected a duration",
      "checkpoint export ckpt://b/q|expected the checkpoint (ckpt://authority/path) and the target (s3a://bucket/path)"
          + " after export",
      "checkpoint export ckpt://b/q s3a://b/p x|unexpected arguments after the target: x",
      "checkpoint export ckpt://b/q s3a://b/p --min-age 1h|--min-age applies to gc only",
      "checkpoint export ckpt://b/q s3a://b/p --idle soon|--idle soon: expected a duration",
      "checkpoint ls ckpt://b/q -D|-D needs key=value after it",
      "checkpoint ls ckpt://b/q -D novalue|-D novalue: expected key=value",
      "checkpoint ls ckpt://b/q -D=x|-D =x: expected key=value",
      "checkpoint ls ckpt://b/q --conf /no/such/core-site.xml|--conf /no/such/core-site.xml: no such file",
      "direct-cleanup|expected the table's path",
      "direct-cleanup s3a://b/t|expected one of --list, --job JOB_ID or --all",
      "direct-cleanup s3a://b/t --list --all|--list, --job and --all exclude each other",
      "direct-cleanup s3a://b/t job1|unexpected arguments after the path: job1 (job ids go after --job)",
      "uploads|expected list or abort and an s3a:// path",
      "uploads purge s3a://b/t|unknown action 'purge': expected list or abort",
      "uploads list|expected an s3a://bucket/prefix path after list",
      "uploads list s3a://b/t --older-than soon|--older-than soon: expected a duration",
      "uploads list /t|/t: expected s3a://bucket/prefix",
      "store|expected check and an s3a://bucket/prefix path",
      "store verify s3a://b/t|unknown action 'verify': expected check",
      "store check|expected an s3a://bucket/prefix path after check",
      "store check s3a://b/t s3a://b/u|unexpected arguments after the path: s3a://b/u",
      "store check hdfs://nn/t|hdfs://nn/t: expected s3a://bucket/prefix",
      "store check /t|/t: expected s3a://bucket/prefix",
      "store check s3a://b/t --rounds 3|unknown option --rounds (options here: --all, --conf, --help, -D)",
  })
  void usageErrors(String caseLine) {
    String[] parts = caseLine.split("\\|");
    String[] args = parts[0].split(" ");
    CommandRun run = CommandRun.of(args);
    assertEquals(2, run.code, run.toString());
    String name = "objectcommit " + args[0];
    assertTrue(run.err.startsWith(name + ": " + parts[1]), run.toString());
    assertTrue(run.err.contains("run `" + name + " --help` for usage"), run.toString());
    assertEquals("", run.out);
  }

  @Test
  void aPathThatIsNotACheckpointLocationIsAUsageError() {
    CommandRun run = CommandRun.of("checkpoint", "ls", "file:///tmp/x");
    assertEquals(2, run.code, run.toString());
    assertTrue(run.err.startsWith("objectcommit checkpoint: file:/tmp/x is not a checkpoint location: expected"
        + " ckpt://<authority>/<path>"), run.toString());
  }
}
