package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The user guide shows each --help text exactly as the command prints it: the guide cannot go stale. */
@Tag(TestTags.COMMAND)
class UserGuideHelpTest {

  @ParameterizedTest
  @ValueSource(strings = {"", "checkpoint", "direct-cleanup", "store", "uploads", "cache", "recompress", "gzip-index"})
  void theGuideHasTheHelpText(String subcommand) throws IOException {
    String guide = Files.readString(Path.of("..", "docs", "user-guide.md"), StandardCharsets.UTF_8);
    String help = subcommand.isEmpty() ? ObjectCommitCommand.HELP
        : ObjectCommitCommand.SUBCOMMANDS.get(subcommand).help();
    assertTrue(guide.contains("```\n" + help + "\n```\n"), "docs/user-guide.md lacks the --help text of `objectcommit "
        + subcommand + "` as printed; paste the output of `bin/objectcommit " + subcommand + " --help`:\n" + help);
  }
}
