package io.objectcommit.fs.impl;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.auth.BasicSessionCredentials;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Keys read once, when the provider is built: from the configuration (S3A's {@code SimpleAWSCredentialsProvider}
 * and {@code TemporaryAWSCredentialsProvider}) or from the environment (the SDK's
 * {@code EnvironmentVariableCredentialsProvider}). When there are none it throws {@link NoCredentialsException}
 * saying what it needs, so that the chain asks the next provider. Half a key pair is not "none": the factories
 * reject it, naming the missing key. {@link #toString()} shows the provider's name and a masked access key id.
 */
final class KeysCredentialsProvider implements AWSCredentialsProvider {

  static final String ENV_ACCESS_KEY = "AWS_ACCESS_KEY_ID";
  static final String ENV_ACCESS_KEY_OLD = "AWS_ACCESS_KEY";
  static final String ENV_SECRET_KEY = "AWS_SECRET_ACCESS_KEY";
  static final String ENV_SECRET_KEY_OLD = "AWS_SECRET_KEY";
  static final String ENV_SESSION_TOKEN = "AWS_SESSION_TOKEN";

  private final String name;
  /** Why there are none, e.g. {@code fs.s3a.access.key and fs.s3a.secret.key are not set}. */
  private final String needs;
  private final AWSCredentials credentials;
  private final String maskedId;

  private KeysCredentialsProvider(String name, String needs, AWSCredentials credentials, String accessKey) {
    this.name = name;
    this.needs = needs;
    this.credentials = credentials;
    this.maskedId = Secrets.mask(accessKey);
  }

  /**
   * S3A's {@code SimpleAWSCredentialsProvider} ({@code session} false: access and secret key) or
   * {@code TemporaryAWSCredentialsProvider} ({@code session} true: with the session token).
   *
   * @param mentionToken whether "what it needs" names the session token (only when the user set one or listed
   *     only the temporary provider)
   */
  static KeysCredentialsProvider fromConfiguration(String name, CredentialSettings c, boolean session,
      boolean mentionToken) {
    String needs = session && mentionToken
        ? c.accessKeyName + ", " + c.secretKeyName + " and " + c.sessionTokenName + " are not set"
        : pair(c.accessKeyName, c.secretKeyName) + " are not set";
    boolean complete = c.accessKey != null && c.secretKey != null && (!session || c.sessionToken != null);
    AWSCredentials creds = !complete ? null
        : session ? new BasicSessionCredentials(c.accessKey, c.secretKey, c.sessionToken)
        : new BasicAWSCredentials(c.accessKey, c.secretKey);
    return new KeysCredentialsProvider(name, needs, creds, c.accessKey);
  }

  /**
   * The SDK's {@code EnvironmentVariableCredentialsProvider}: {@value #ENV_ACCESS_KEY} (or
   * {@value #ENV_ACCESS_KEY_OLD}), {@value #ENV_SECRET_KEY} (or {@value #ENV_SECRET_KEY_OLD}), and
   * {@value #ENV_SESSION_TOKEN} when set.
   *
   * @throws IllegalArgumentException when only one of the key pair is set
   */
  static KeysCredentialsProvider fromEnvironment(String name, UnaryOperator<String> env) {
    String access = firstSet(env, ENV_ACCESS_KEY, ENV_ACCESS_KEY_OLD);
    String secret = firstSet(env, ENV_SECRET_KEY, ENV_SECRET_KEY_OLD);
    String token = firstSet(env, ENV_SESSION_TOKEN);
    if ((access == null) != (secret == null)) {
      throw new IllegalArgumentException("Incomplete AWS credentials in the environment: "
          + (access == null ? ENV_ACCESS_KEY + " is not set but " + ENV_SECRET_KEY + " is"
              : ENV_SECRET_KEY + " is not set but " + ENV_ACCESS_KEY + " is")
          + " (set both, or neither to let the other providers answer)");
    }
    AWSCredentials creds = access == null ? null
        : token != null ? new BasicSessionCredentials(access, secret, token)
        : new BasicAWSCredentials(access, secret);
    return new KeysCredentialsProvider(name, "environment variables " + pair(ENV_ACCESS_KEY, ENV_SECRET_KEY)
        + " are not set",
        creds, access);
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

  @Override
  public AWSCredentials getCredentials() {
    if (credentials == null) {
      throw new NoCredentialsException(needs);
    }
    return credentials;
  }

  @Override
  public void refresh() {
  }

  @Override
  public String toString() {
    return name + (credentials == null ? " (none)" : " (" + maskedId + ")");
  }
}
