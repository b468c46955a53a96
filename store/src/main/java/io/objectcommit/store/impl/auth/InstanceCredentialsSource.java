package io.objectcommit.store.impl.auth;

import java.net.URI;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Where S3A's {@code IAMInstanceCredentialsProvider} gets credentials, decided SDK-neutrally from the environment:
 * container credentials when {@value #RELATIVE_URI} or {@value #FULL_URI} is set (ECS, EKS), else the EC2
 * instance metadata service unless {@value #METADATA_DISABLED} (or the SDKs' system properties) disables it; or
 * why there are none before anything is asked. Each SDK binding fetches with its SDK's own container or instance
 * provider (fetching, parsing, refreshing are the SDK's). The environment is read through a seam, so that tests
 * need not change the real one.
 */
public final class InstanceCredentialsSource {

  static final String RELATIVE_URI = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI";
  static final String FULL_URI = "AWS_CONTAINER_CREDENTIALS_FULL_URI";
  static final String AUTHORIZATION_TOKEN = "AWS_CONTAINER_AUTHORIZATION_TOKEN";
  static final String METADATA_DISABLED = "AWS_EC2_METADATA_DISABLED";
  /** The SDK v1's system property. */
  static final String METADATA_DISABLED_PROPERTY = "com.amazonaws.sdk.disableEc2Metadata";
  /** The SDK v2's system property. */
  static final String METADATA_DISABLED_PROPERTY_V2 = "aws.disableEc2Metadata";
  /** Where ECS serves the relative URI. */
  static final String ECS_HOST = "http://169.254.170.2";
  /** Hosts a plain-HTTP full URI may name, as in the SDK. */
  private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1");

  private final String name;
  private final URI endpoint;
  private final String token;
  private final String unusable;

  /** @param name the provider's name in messages */
  public InstanceCredentialsSource(String name, UnaryOperator<String> env) {
    this.name = name;
    String relative = trimmed(env.apply(RELATIVE_URI));
    String full = trimmed(env.apply(FULL_URI));
    URI uri = null;
    String problem = null;
    if (relative != null || full != null) {
      String variable = relative != null ? RELATIVE_URI : FULL_URI;
      try {
        uri = URI.create(relative != null ? ECS_HOST + relative : full);
        if (uri.getHost() == null) {
          problem = "container credentials: " + variable + " is not a URL with a host";
        } else if (relative == null && !"https".equalsIgnoreCase(uri.getScheme())
            && !LOOPBACK.contains(uri.getHost())) {
          problem = "container credentials: " + FULL_URI + " must be an https URL or name localhost or 127.0.0.1";
        }
      } catch (IllegalArgumentException e) {
        problem = "container credentials: " + variable + " is not a URL";
      }
    }
    String disabledBy = uri == null ? metadataDisabledBy(env) : null;
    if (problem == null && disabledBy != null) {
      problem = "no container credentials (" + FULL_URI + " and " + RELATIVE_URI + " are not set) and the EC2"
          + " instance metadata service is disabled by " + disabledBy;
    }
    this.unusable = problem;
    this.endpoint = problem == null ? uri : null;
    this.token = problem == null && uri != null && relative == null ? trimmed(env.apply(AUTHORIZATION_TOKEN)) : null;
  }

  /** The variable or system property that disables the instance metadata service (as the SDKs read them). */
  private static String metadataDisabledBy(UnaryOperator<String> env) {
    String v = env.apply(METADATA_DISABLED);
    if ("true".equalsIgnoreCase(v == null ? null : v.trim())) {
      return METADATA_DISABLED;
    }
    for (String p : new String[] {METADATA_DISABLED_PROPERTY, METADATA_DISABLED_PROPERTY_V2}) {
      if ("true".equalsIgnoreCase(System.getProperty(p))) {
        return p;
      }
    }
    return null;
  }

  private static String trimmed(String v) {
    return v == null || v.trim().isEmpty() ? null : v.trim();
  }

  /** Why there are no credentials before asking anything, or null. */
  public String unusable() {
    return unusable;
  }

  /** The container credentials endpoint, or null (instance metadata, or unusable). */
  public URI containerEndpoint() {
    return endpoint;
  }

  /** The authorization token of a full container URI, or null. A secret: never log it. */
  public String authorizationToken() {
    return token;
  }

  /** The message of "nothing to give" after the SDK failed with {@code sdkFailure} (which carries no secret). */
  public String failure(Throwable sdkFailure) {
    String source = endpoint != null ? "container credentials from " + endpoint
        : "no container credentials (" + FULL_URI + " and " + RELATIVE_URI + " are not set) and no EC2 instance"
            + " credentials";
    return source + " (" + sdkFailure.getClass().getSimpleName() + ": " + sdkFailure.getMessage() + ")";
  }

  @Override
  public String toString() {
    return name + (endpoint != null ? " (container credentials from " + endpoint.getHost() + ")"
        : unusable != null ? " (none)" : " (EC2 instance metadata)");
  }
}
