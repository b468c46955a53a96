package io.objectcommit.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;

/** LocalStack in a container, through Testcontainers (whose Ryuk container removes it if the JVM dies). */
final class LocalStackDocker implements RunningEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(LocalStackDocker.class);

  private final LocalStackContainer container;
  private final S3Endpoint endpoint;

  private LocalStackDocker(LocalStackContainer container) {
    this.container = container;
    this.endpoint = new S3Endpoint(S3Endpoint.Kind.DOCKER, container.getEndpoint().toString(),
        container.getRegion(), container.getAccessKey(), container.getSecretKey(), true);
  }

  /** True when a Docker engine answers; never throws. */
  static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("Docker is not available", e);
      return false;
    }
  }

  /** The pinned image, from the root pom (through versions.properties). */
  static String image() {
    Properties p = new Properties();
    try (InputStream in = LocalStackDocker.class.getResourceAsStream("versions.properties")) {
      if (in == null) {
        throw new IllegalStateException("versions.properties missing from the test-support jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("localstack.image");
  }

  static LocalStackDocker start() {
    String image = image();
    LOG.info("Starting LocalStack {} with Testcontainers", image);
    @SuppressWarnings("resource") // closed by close()
    LocalStackContainer c = new LocalStackContainer(DockerImageName.parse(image)).withEnv("SERVICES", "s3")
        .withEnv(LocalStackHost.CORS_ORIGINS_KEY, LocalStackHost.CORS_ORIGINS);
    c.start();
    return new LocalStackDocker(c);
  }

  @Override
  public S3Endpoint endpoint() {
    return endpoint;
  }

  @Override
  public Optional<Path> logFile() {
    return Optional.empty();
  }

  @Override
  public String logTail(int lines) {
    String[] all = container.getLogs().split("\n");
    return String.join("\n", Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
  }

  @Override
  public void close() {
    container.stop();
  }
}
