package io.objectcommit.store.impl.auth;

import io.objectcommit.store.impl.client.S3ClientSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Keys read once, SDK-neutral: from the configuration (S3A's {@code SimpleAWSCredentialsProvider} and
 * {@code TemporaryAWSCredentialsProvider}) or from the environment (the SDKs' environment variable providers).
 * When there are none, {@link #needs()} says what is missing, so that the chain asks the next provider. Half a key
 * pair is not "none": the factories reject it, naming the missing key. Each SDK binding wraps this in its own
 * provider type; {@link #toString()} shows the provider's name and a masked access key id, never a secret.
 */
public final class CredentialKeys {

  static final String ENV_ACCESS_KEY = "AWS_ACCESS_KEY_ID";
  static final String ENV_ACCESS_KEY_OLD = "AWS_ACCESS_KEY";
  static final String ENV_SECRET_KEY = "AWS_SECRET_ACCESS_KEY";
  static final String ENV_SECRET_KEY_OLD = "AWS_SECRET_KEY";
  static final String ENV_SESSION_TOKEN = "AWS_SESSION_TOKEN";

  private final String name;
  private final String needs;
  private final String accessKey;
  private final String secretKey;
  private final String sessionToken;

  private CredentialKeys(String name, String needs, String accessKey, String secretKey, String sessionToken) {
    this.name = name;
    this.needs = needs;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.sessionToken = sessionToken;
  }

  /**
   * The keys of the configuration for provider {@code builtIn} ({@code SIMPLE}, {@code TEMPORARY}) or of the
   * environment ({@code ENVIRONMENT}) of {@code settings}.
   *
   * @throws IllegalArgumentException when the environment holds half a key pair
   */
  public static CredentialKeys of(CredentialProviders.BuiltIn builtIn, String name, S3ClientSettings settings,
      UnaryOperator<String> env) {
    CredentialSettings c = settings.credentials();
    switch (builtIn) {
      case SIMPLE:
        return fromConfiguration(name, c, false, false);
      case TEMPORARY:
        // Speak of the session token only to a user who asked for session credentials alone.
        return fromConfiguration(name, c, true, !c.providers.contains(CredentialProviders.S3A_SIMPLE)
            && !c.providers.isEmpty());
      case ENVIRONMENT:
        return fromEnvironment(name, env);
      default:
        throw new IllegalArgumentException("not a keys provider: " + builtIn);
    }
  }

  /**
   * {@code session} false: access and secret key; true: with the session token.
   *
   * @param mentionToken whether "what it needs" names the session token
   */
  static CredentialKeys fromConfiguration(String name, CredentialSettings c, boolean session,
      boolean mentionToken) {
    String needs = session && mentionToken
        ? c.accessKeyName + ", " + c.secretKeyName + " and " + c.sessionTokenName + " are not set"
        : pair(c.accessKeyName, c.secretKeyName) + " are not set";
    boolean complete = c.accessKey != null && c.secretKey != null && (!session || c.sessionToken != null);
    return complete
        ? new CredentialKeys(name, needs, c.accessKey, c.secretKey, session ? c.sessionToken : null)
        : new CredentialKeys(name, needs, null, null, null);
  }

  /**
   * {@value #ENV_ACCESS_KEY} (or {@value #ENV_ACCESS_KEY_OLD}), {@value #ENV_SECRET_KEY} (or
   * {@value #ENV_SECRET_KEY_OLD}), and {@value #ENV_SESSION_TOKEN} when set.
   *
   * @throws IllegalArgumentException when only one of the key pair is set
   */
  static CredentialKeys fromEnvironment(String name, UnaryOperator<String> env) {
    String access = firstSet(env, ENV_ACCESS_KEY, ENV_ACCESS_KEY_OLD);
    String secret = firstSet(env, ENV_SECRET_KEY, ENV_SECRET_KEY_OLD);
    String token = firstSet(env, ENV_SESSION_TOKEN);
    if ((access == null) != (secret == null)) {
      throw new IllegalArgumentException("Incomplete AWS credentials in the environment: "
          + (access == null ? ENV_ACCESS_KEY + " is not set but " + ENV_SECRET_KEY + " is"
              : ENV_SECRET_KEY + " is not set but " + ENV_ACCESS_KEY + " is")
          + " (set both, or neither to let the other providers answer)");
    }
    String needs = "environment variables " + pair(ENV_ACCESS_KEY, ENV_SECRET_KEY) + " are not set";
    return access == null ? new CredentialKeys(name, needs, null, null, null)
        : new CredentialKeys(name, needs, access, secret, token);
  }

  /**
   * Rejects half a key pair in the configuration, naming the missing keys: {@code session} true also rejects a
   * session token without both keys.
   *
   * @throws IllegalArgumentException when misconfigured
   */
  static void checkComplete(CredentialSettings c, boolean session) {
    boolean anyKey = c.accessKey != null || c.secretKey != null;
    if (!anyKey && !(session && c.sessionToken != null)) {
      return;
    }
    List<String> missing = new ArrayList<>();
    List<String> set = new ArrayList<>();
    (c.accessKey == null ? missing : set).add(c.accessKeyName);
    (c.secretKey == null ? missing : set).add(c.secretKeyName);
    if (missing.isEmpty()) {
      return;
    }
    if (session && c.sessionToken != null) {
      set.add(c.sessionTokenName);
    }
    throw new IllegalArgumentException("Incomplete S3 credentials: " + String.join(" and ", missing)
        + (missing.size() == 1 ? " is" : " are") + " not set but " + String.join(" and ", set)
        + (set.size() == 1 ? " is" : " are") + " (set both keys, or neither to let the other providers in "
        + c.providerKey + " answer)");
  }

  private static String pair(String a, String b) {
    return a + " and " + b;
  }

  private static String firstSet(UnaryOperator<String> env, String... names) {
    for (String n : names) {
      String v = env.apply(n);
      if (v != null && !v.trim().isEmpty()) {
        return v.trim();
      }
    }
    return null;
  }

  /** Whether there are keys; when not, {@link #needs()} says why. */
  public boolean present() {
    return accessKey != null;
  }

  /** What is missing, e.g. {@code fs.s3a.access.key and fs.s3a.secret.key are not set}; no secret. */
  public String needs() {
    return needs;
  }

  /** A secret-free name of the provider. */
  public String name() {
    return name;
  }

  public String accessKey() {
    return accessKey;
  }

  /** A secret: never log it. */
  public String secretKey() {
    return secretKey;
  }

  /** A secret, null without a session: never log it. */
  public String sessionToken() {
    return sessionToken;
  }

  @Override
  public String toString() {
    return name + (accessKey == null ? " (none)" : " (" + Secrets.mask(accessKey) + ")");
  }
}
