package io.objectcommit.store.impl.auth;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the providers of {@code fs.s3a.aws.credentials.provider} are asked, written once for both SDKs (as S3A's
 * {@code AWSCredentialProviderList}): a provider that throws its SDK's client exception (ours throw their SDK's
 * "no credentials" exception: nothing to give) is skipped; the first that returns keys (or anonymous
 * credentials) wins and is asked first from then on. Any other exception propagates.
 *
 * <p>When none gives credentials, one exception (built by the {@link Sdk} adapter, of its SDK's "no credentials"
 * type) lists every provider with what it needed, in the order asked, naming the key. The built-in providers'
 * messages are ours: they name keys and environment variables, never values. A custom provider's message is not
 * repeated (it is not ours to vet for secrets): its exception is the cause (the first) or suppressed.
 *
 * @param <P> the SDK's provider type
 * @param <C> the SDK's credentials type
 */
public final class CredentialChain<P, C> {

  private static final Logger LOG = LoggerFactory.getLogger(CredentialChain.class);

  /** What differs between the SDKs. */
  public interface Sdk<P, C> {
    /** Asks {@code provider}; may throw. */
    C ask(P provider);

    /** Whether {@code credentials} can sign (keys) or are the SDK's anonymous credentials. */
    boolean usable(C credentials);

    /** Whether {@code e} means "nothing to give": the SDK's client exception. */
    boolean nothingToGive(RuntimeException e);

    /** The message of {@code e} when it is our own provider's "no credentials" (safe to repeat), else null. */
    String ownMessage(P provider, RuntimeException e);

    /** The SDK's "no credentials" exception with {@code message}; {@code cause} may be null. */
    RuntimeException noCredentials(String message, RuntimeException cause);
  }

  private final String key;
  private final List<String> names;
  private final List<P> providers;
  private final Sdk<P, C> sdk;
  private volatile P last;

  /**
   * @param key the configuration key the list was read from, for the error
   * @param names each provider's name as shown in the error (same order and size as {@code providers})
   */
  public CredentialChain(String key, List<String> names, List<P> providers, Sdk<P, C> sdk) {
    if (names.size() != providers.size()) {
      throw new IllegalArgumentException("one name per provider");
    }
    this.key = key;
    this.names = Collections.unmodifiableList(new ArrayList<>(names));
    this.providers = Collections.unmodifiableList(new ArrayList<>(providers));
    this.sdk = sdk;
  }

  /** The providers, in the order they are asked. */
  public List<P> providers() {
    return providers;
  }

  /** The credentials of the first provider that has some. */
  public C resolve() {
    P l = last;
    if (l != null) {
      try {
        C creds = sdk.ask(l);
        if (sdk.usable(creds)) {
          return creds;
        }
      } catch (RuntimeException e) {
        if (!sdk.nothingToGive(e)) {
          throw e;
        }
        LOG.debug("Credentials from {} no longer available, asking all providers again: {}", l, e.toString());
      }
      last = null;
    }
    List<String> details = new ArrayList<>();
    List<RuntimeException> failures = new ArrayList<>();
    for (int i = 0; i < providers.size(); i++) {
      P p = providers.get(i);
      String detail;
      try {
        C creds = sdk.ask(p);
        if (sdk.usable(creds)) {
          last = p;
          LOG.debug("Using credentials from {}", p);
          return creds;
        }
        detail = "returned no keys";
      } catch (RuntimeException e) {
        if (!sdk.nothingToGive(e)) {
          throw e;
        }
        String own = sdk.ownMessage(p, e);
        if (own != null) {
          detail = own;
          LOG.debug("No credentials from {}: {}", p, detail);
        } else {
          failures.add(e);
          detail = "failed with " + e.getClass().getName() + " (its message is in the causes of this exception)";
          LOG.debug("No credentials from {}", p, e);
        }
      }
      details.add(names.get(i) + ": " + detail);
    }
    RuntimeException e = sdk.noCredentials("No AWS credentials from any provider in " + key + ": "
        + merge(details), failures.isEmpty() ? null : failures.get(0));
    for (int i = 1; i < failures.size(); i++) {
      e.addSuppressed(failures.get(i));
    }
    throw e;
  }

  /** Forgets the provider that answered last: all are asked again. */
  public void forget() {
    last = null;
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

  /** The providers in order; no secrets (the built-in ones show a masked access key id at most). */
  @Override
  public String toString() {
    return providers.toString();
  }
}
