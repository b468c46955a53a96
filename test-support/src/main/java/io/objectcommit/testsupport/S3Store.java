package io.objectcommit.testsupport;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The S3 implementations the integration tests can run against, chosen with {@value S3TestSettings#STORE}
 * (environment) or the system property {@value S3TestSettings#STORE_PROPERTY}. Each but {@link #EXTERNAL} is
 * started by the harness on a free 127.0.0.1 port and stopped with the test JVM.
 */
public enum S3Store {
  /** LocalStack (host mode, or Docker when an engine is reachable): the default. */
  LOCALSTACK("localstack", "LocalStack"),
  /** moto server 5.2.5 (PyPI {@code moto[server]}): checks SigV4 signatures. */
  MOTO("moto", "moto 5.2.5"),
  /** moto server 4.2.14: ignores conditional headers (the refusal path). */
  MOTO_OLD("moto-old", "moto 4.2.14"),
  /** S3Proxy 4.1.0 (Maven Central), filesystem backend, AWS signatures checked. */
  S3PROXY("s3proxy", "S3Proxy 4.1.0"),
  /** S3Proxy 2.0.0: ignores conditional headers (the refusal path). */
  S3PROXY_OLD("s3proxy-old", "S3Proxy 2.0.0"),
  /** Adobe S3Mock 5.2.0 (Maven Central), kept off every network by a private network namespace. */
  S3MOCK("s3mock", "S3Mock 5.2.0"),
  /** An endpoint the user runs ({@value S3TestSettings#ENDPOINT}). */
  EXTERNAL("external", "external endpoint");

  private final String id;
  private final String description;

  S3Store(String id, String description) {
    this.id = id;
    this.description = description;
  }

  /** The name used in {@value S3TestSettings#STORE}. */
  public String id() {
    return id;
  }

  /** Product and version, for logs and reports. */
  public String description() {
    return description;
  }

  /** Parses a name of {@link #id()}; fails listing the valid ones. */
  public static S3Store of(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (S3Store s : values()) {
      if (s.id.equals(n)) {
        return s;
      }
    }
    throw new IllegalStateException(S3TestSettings.STORE + "=" + name + " is not one of "
        + Arrays.stream(values()).map(S3Store::id).collect(Collectors.joining(", ")));
  }
}
