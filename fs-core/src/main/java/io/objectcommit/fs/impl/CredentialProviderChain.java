package io.objectcommit.fs.impl;

import com.amazonaws.SdkClientException;
import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.AnonymousAWSCredentials;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The providers of {@code fs.s3a.aws.credentials.provider}, asked in order as S3A's
 * {@code AWSCredentialProviderList} asks them: a provider that throws an {@link SdkClientException} (ours throw
 * {@link NoCredentialsException}: nothing to give) is skipped; the first that returns keys (or anonymous
 * credentials) wins and is asked first from then on. Any other exception propagates.
 *
 * <p>When none gives credentials, one {@link NoCredentialsException} lists every provider with what it needed.
 * The built-in providers' messages are ours: they name keys and environment variables, never values, and for
 * container or instance credentials add the AWS SDK's own reason (which carries no credentials). A custom
 * provider's message is not repeated (it is not ours to vet for secrets): its exception is the cause (the
 * first) or suppressed.
 */
public final class CredentialProviderChain implements AWSCredentialsProvider {

  private static final Logger LOG = LoggerFactory.getLogger(CredentialProviderChain.class);

  private final String key;
  private final List<String> names;
  private final List<AWSCredentialsProvider> providers;
  private volatile AWSCredentialsProvider last;

  /**
   * @param key the configuration key the list was read from, for the error
   * @param names each provider's name as shown in the error (same order and size as {@code providers})
   */
  CredentialProviderChain(String key, List<String> names, List<AWSCredentialsProvider> providers) {
    if (names.size() != providers.size()) {
      throw new IllegalArgumentException("one name per provider");
    }
    this.key = key;
    this.names = Collections.unmodifiableList(new ArrayList<>(names));
    this.providers = Collections.unmodifiableList(new ArrayList<>(providers));
  }

  /** The providers, in the order they are asked. */
  public List<AWSCredentialsProvider> providers() {
    return providers;
  }

  @Override
  public AWSCredentials getCredentials() {
    AWSCredentialsProvider l = last;
    if (l != null) {
      try {
        AWSCredentials creds = l.getCredentials();
        if (usable(creds)) {
          return creds;
        }
      } catch (SdkClientException e) {
        LOG.debug("Credentials from {} no longer available, asking all providers again: {}", l, e.toString());
      }
      last = null;
    }
    List<String> details = new ArrayList<>();
    List<SdkClientException> failures = new ArrayList<>();
    for (int i = 0; i < providers.size(); i++) {
      AWSCredentialsProvider p = providers.get(i);
      String detail;
      try {
        AWSCredentials creds = p.getCredentials();
        if (usable(creds)) {
          last = p;
          LOG.debug("Using credentials from {}", p);
          return creds;
        }
        detail = "returned no keys";
      } catch (NoCredentialsException e) {
        detail = isOurs(p) ? e.getMessage() : foreign(e, failures);
        LOG.debug("No credentials from {}: {}", p, detail);
      } catch (SdkClientException e) {
        detail = foreign(e, failures);
        LOG.debug("No credentials from {}", p, e);
      }
      details.add(names.get(i) + ": " + detail);
    }
    NoCredentialsException e = new NoCredentialsException("No AWS credentials from any provider in " + key + ": "
        + merge(details), failures.isEmpty() ? null : failures.get(0));
    for (int i = 1; i < failures.size(); i++) {
      e.addSuppressed(failures.get(i));
    }
    throw e;
  }

  private static boolean usable(AWSCredentials creds) {
    return creds instanceof AnonymousAWSCredentials
        || creds != null && creds.getAWSAccessKeyId() != null && creds.getAWSSecretKey() != null;
  }

  private static boolean isOurs(AWSCredentialsProvider p) {
    return p instanceof KeysCredentialsProvider || p instanceof InstanceCredentialsProvider;
  }

  private static String foreign(SdkClientException e, List<SdkClientException> failures) {
    failures.add(e);
    return "failed with " + e.getClass().getName() + " (its message is in the causes of this exception)";
  }

  /** Joins the details; consecutive providers with the same detail share one entry ("A and B: detail"). */
  private static String merge(List<String> details) {
    List<String> out = new ArrayList<>();
    String prevDetail = null;
    for (String d : details) {
      int colon = d.indexOf(": ");
      String name = d.substring(0, colon);
      String detail = d.substring(colon + 2);
      if (detail.equals(prevDetail)) {
        String prev = out.remove(out.size() - 1);
        out.add(prev.substring(0, prev.length() - detail.length() - 2) + " and " + name + ": " + detail);
      } else {
        out.add(d);
      }
      prevDetail = detail;
    }
    return String.join("; ", out);
  }

  @Override
  public void refresh() {
    last = null;
    for (AWSCredentialsProvider p : providers) {
      p.refresh();
    }
  }

  /** The providers in order; no secrets (the built-in ones show a masked access key id at most). */
  @Override
  public String toString() {
    return "CredentialProviderChain" + providers;
  }
}
