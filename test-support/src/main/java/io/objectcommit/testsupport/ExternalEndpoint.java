package io.objectcommit.testsupport;

import java.nio.file.Path;
import java.util.Optional;

/** An endpoint the user runs: nothing to start, nothing to stop, no log of ours. */
final class ExternalEndpoint implements RunningEndpoint {

  private final S3Endpoint endpoint;

  ExternalEndpoint(S3Endpoint endpoint) {
    this.endpoint = endpoint;
  }

  @Override
  public S3Endpoint endpoint() {
    return endpoint;
  }

  @Override
  public S3Store store() {
    return S3Store.EXTERNAL;
  }

  @Override
  public Optional<Path> logFile() {
    return Optional.empty();
  }

  @Override
  public String logTail(int lines) {
    return "(external endpoint " + endpoint.uri() + ": its log is wherever you run it)";
  }

  @Override
  public void close() {
  }
}
