package io.objectcommit.cli;

/**
 * A subcommand ends with an exit code of its own (not 1) and a message for stderr: {@code store check} whose check
 * could not run (exit code {@value ObjectCommitCommand#UNAVAILABLE}).
 */
final class CommandException extends Exception {

  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CommandException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
