package io.objectcommit.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses and starts the S3 endpoint of this JVM, once, in this order:
 * <ol>
 *   <li>an external endpoint when {@value S3TestSettings#ENDPOINT} names one;</li>
 *   <li>otherwise LocalStack through Testcontainers when a Docker engine is reachable;</li>
 *   <li>otherwise LocalStack in host mode ({@link LocalStackHost}): the build's one LocalStack where the build
 *       shares one ({@link BuildEndpoint}), else one for this JVM.</li>
 * </ol>
 * {@value S3TestSettings#MODE} forces one of them. When none works, one error says what to install.
 */
public final class S3Endpoints {

  private static final Logger LOG = LoggerFactory.getLogger(S3Endpoints.class);
  /** System property naming the directory for LocalStack logs and state; the build sets it under target/. */
  public static final String WORKDIR_PROPERTY = "objectcommit.it.workdir";

  private static RunningEndpoint shared;

  private S3Endpoints() {
  }

  /** The endpoint of this JVM, started on first use and stopped when the JVM exits. */
  public static synchronized RunningEndpoint shared() {
    if (shared == null) {
      shared = start(S3TestSettings.fromEnvironment(), workDir());
      RunningEndpoint started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "s3-endpoint-stop"));
      LOG.info("Using S3 endpoint {} ({})", started.endpoint(), started.store().description());
    }
    return shared;
  }

  /** The endpoint if this JVM has started one, else null (never starts one). */
  static synchronized RunningEndpoint sharedIfStarted() {
    return shared;
  }

  /** Where logs and state of endpoints started by this JVM are kept. */
  public static Path workDir() {
    return Path.of(System.getProperty(WORKDIR_PROPERTY, "target/localstack")).toAbsolutePath();
  }

  /** The store of this JVM's endpoint (starts it if needed). */
  public static S3Store store() {
    return shared().store();
  }

  static RunningEndpoint start(S3TestSettings settings, Path workDir) {
    S3Store store = settings.store();
    if (store != S3Store.LOCALSTACK && store != S3Store.EXTERNAL) {
      try {
        return StoreHost.start(store, workDir);
      } catch (IOException e) {
        throw new UncheckedIOException(store.description() + " failed to start (logs under " + workDir + ")", e);
      }
    }
    switch (settings.mode()) {
      case EXTERNAL:
        return new ExternalEndpoint(settings.externalEndpoint());
      case DOCKER:
        if (!LocalStackDocker.dockerAvailable()) {
          throw new IllegalStateException(S3TestSettings.MODE + "=docker but no Docker engine is reachable");
        }
        return LocalStackDocker.start();
      case HOST:
        return startHost(workDir);
      case AUTO:
      default:
        if (LocalStackDocker.dockerAvailable()) {
          return LocalStackDocker.start();
        }
        LOG.info("No Docker engine reachable: starting LocalStack in host mode");
        try {
          return startHost(workDir);
        } catch (LocalStackHost.NotAvailableException e) {
          throw new IllegalStateException(noEndpointMessage(e.getMessage()), e);
        }
    }
  }

  private static RunningEndpoint startHost(Path workDir) {
    try {
      Optional<Path> build = BuildEndpoint.configuredDir();
      return build.isPresent() ? BuildEndpoint.acquire(build.get()) : LocalStackHost.start(workDir);
    } catch (IOException e) {
      throw new UncheckedIOException("host-mode LocalStack failed to start (logs under " + workDir + ")", e);
    }
  }

  static String noEndpointMessage(String hostProblem) {
    return "No S3 endpoint for the integration tests. Tried, in order:\n"
        + "  1. an external endpoint: " + S3TestSettings.ENDPOINT + " is not set;\n"
        + "  2. LocalStack in Docker (Testcontainers): no Docker engine is reachable;\n"
        + "  3. LocalStack in host mode: " + hostProblem + "\n"
        + "Do one of: install Python 3.13 (or 3.11+) for host mode; start a Docker engine; or set "
        + S3TestSettings.ENDPOINT + " (with " + S3TestSettings.ACCESS_KEY + " and " + S3TestSettings.SECRET_KEY
        + ") to an S3 endpoint you run. See README.md, 'Running the tests'.";
  }
}
