package io.objectcommit.fs.impl;

import com.amazonaws.SdkClientException;
import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.ContainerCredentialsProvider;
import com.amazonaws.auth.InstanceProfileCredentialsProvider;
import com.amazonaws.internal.CredentialsEndpointProvider;
import java.net.URI;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * S3A's {@code IAMInstanceCredentialsProvider}: container credentials when {@value #RELATIVE_URI} or
 * {@value #FULL_URI} is set (ECS, EKS), else the EC2 instance metadata service, as the SDK's
 * {@code EC2ContainerCredentialsProviderWrapper} chooses; a failure means "nothing to give"
 * ({@link NoCredentialsException}), so that the chain goes on. The environment is read through a seam, so that
 * tests need not change the real one; the fetching, parsing and refreshing are the SDK's.
 */
final class InstanceCredentialsProvider implements AWSCredentialsProvider {

  static final String RELATIVE_URI = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI";
  static final String FULL_URI = "AWS_CONTAINER_CREDENTIALS_FULL_URI";
  static final String AUTHORIZATION_TOKEN = "AWS_CONTAINER_AUTHORIZATION_TOKEN";
  static final String METADATA_DISABLED = "AWS_EC2_METADATA_DISABLED";
  static final String METADATA_DISABLED_PROPERTY = "com.amazonaws.sdk.disableEc2Metadata";
  /** Where ECS serves the relative URI. */
  static final String ECS_HOST = "http://169.254.170.2";
  /** Hosts a plain-HTTP full URI may name, as in the SDK. */
  private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1");

  private final String name;
  /** The container endpoint, null when the instance metadata service is used. */
  private final URI endpoint;
  /** Why there are no credentials before asking anything, or null. */
  private final String unusable;
  private final AWSCredentialsProvider delegate;

  InstanceCredentialsProvider(String name, UnaryOperator<String> env) {
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
    if (problem != null) {
      this.delegate = null;
    } else if (uri != null) {
      String token = trimmed(env.apply(AUTHORIZATION_TOKEN));
      this.delegate = new ContainerCredentialsProvider(new Endpoint(uri, relative == null ? token : null));
    } else {
      this.delegate = InstanceProfileCredentialsProvider.getInstance();
    }
  }

  /** The variable or system property that disables the instance metadata service (as the SDK reads them). */
  private static String metadataDisabledBy(UnaryOperator<String> env) {
    String v = env.apply(METADATA_DISABLED);
    if ("true".equalsIgnoreCase(v == null ? null : v.trim())) {
      return METADATA_DISABLED;
    }
    return "true".equalsIgnoreCase(System.getProperty(METADATA_DISABLED_PROPERTY)) ? METADATA_DISABLED_PROPERTY
        : null;
  }

  private static String trimmed(String v) {
    return v == null || v.trim().isEmpty() ? null : v.trim();
  }

  /** The container credentials endpoint in use, or null (instance metadata, or unusable). */
  URI containerEndpoint() {
    return endpoint;
  }

  @Override
  public AWSCredentials getCredentials() {
    if (unusable != null) {
      throw new NoCredentialsException(unusable);
    }
    try {
      return delegate.getCredentials();
    } catch (SdkClientException e) {
      String source = endpoint != null ? "container credentials from " + endpoint
          : "no container credentials (" + FULL_URI + " and " + RELATIVE_URI + " are not set) and no EC2 instance"
              + " credentials";
      throw new NoCredentialsException(source + " (" + e.getClass().getSimpleName() + ": " + e.getMessage()
          + ")", e);
    }
  }

  @Override
  public void refresh() {
    if (delegate != null) {
      delegate.refresh();
    }
  }

  @Override
  public String toString() {
    return name + (endpoint != null ? " (container credentials from " + endpoint.getHost() + ")"
        : unusable != null ? " (none)" : " (EC2 instance metadata)");
  }

  /** The SDK's endpoint of container credentials, from our environment seam. */
  private static final class Endpoint extends CredentialsEndpointProvider {
    private final URI uri;
    private final String token;

    Endpoint(URI uri, String token) {
      this.uri = uri;
      this.token = token;
    }

    @Override
    public URI getCredentialsEndpoint() {
      return uri;
    }

    @Override
    public Map<String, String> getHeaders() {
      return token == null ? Collections.emptyMap() : Collections.singletonMap("Authorization", token);
    }
  }
}
