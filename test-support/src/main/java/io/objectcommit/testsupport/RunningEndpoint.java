package io.objectcommit.testsupport;

import java.nio.file.Path;
import java.util.Optional;

/** An S3 endpoint for the lifetime of a test JVM, with whatever must be stopped when it ends. */
public interface RunningEndpoint extends AutoCloseable {

  S3Endpoint endpoint();

  /** Which S3 implementation this is. */
  default S3Store store() {
    return S3Store.LOCALSTACK;
  }

  /** The server's log file, where there is one the harness owns. */
  Optional<Path> logFile();

  /** The last {@code lines} lines of the server's log, or an explanation why there is none. */
  String logTail(int lines);

  /** Stops what the harness started; idempotent; never throws. */
  @Override
  void close();
}
