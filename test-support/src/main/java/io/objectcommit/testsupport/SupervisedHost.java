package io.objectcommit.testsupport;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The public face shared by {@link LocalStackHost} and {@link StoreHost}: an S3 endpoint on 127.0.0.1 served by a
 * {@link SupervisedServer} that this JVM started.
 */
abstract class SupervisedHost implements RunningEndpoint {

  final SupervisedServer server;
  private final S3Endpoint endpoint;

  SupervisedHost(SupervisedServer server, S3Endpoint.Kind kind, String accessKey, String secretKey) {
    this(server, kind, "http", accessKey, secretKey);
  }

  /** As the other constructor, for a server that answers on {@code scheme} ({@code http} or {@code https}). */
  SupervisedHost(SupervisedServer server, S3Endpoint.Kind kind, String scheme, String accessKey, String secretKey) {
    this.server = server;
    this.endpoint = new S3Endpoint(kind, scheme + "://127.0.0.1:" + server.port(), S3TestSettings.DEFAULT_REGION,
        accessKey, secretKey, true);
  }

  @Override
  public S3Endpoint endpoint() {
    return endpoint;
  }

  public int port() {
    return server.port();
  }

  /** The supervisor's pid: the process this JVM started. */
  public long supervisorPid() {
    return server.supervisorPid();
  }

  @Override
  public Optional<Path> logFile() {
    return Optional.of(server.log());
  }

  @Override
  public String logTail(int lines) {
    return server.logTail(lines);
  }

  @Override
  public void close() {
    server.stop();
  }
}
