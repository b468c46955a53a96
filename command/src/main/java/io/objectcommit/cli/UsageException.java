package io.objectcommit.cli;

/** The command line is wrong (exit code 2); the message says what was wrong. */
public final class UsageException extends Exception {

  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
