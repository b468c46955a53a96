package io.objectcommit.store.impl.auth;

/**
 * A class named in {@code fs.s3a.aws.credentials.provider} cannot be used: not found, not a credential provider
 * of the SDK in use, no way to build it, or its constructor failed. A configuration error (hence an
 * {@link IllegalArgumentException}), thrown when the settings are read or the client is built, never retried.
 * The message names the key actually read (its per-bucket form when that is the one set) and the class, never a
 * secret; a failing constructor's exception is the cause.
 */
public class CredentialProviderException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;
  private final String className;

  public CredentialProviderException(String key, String className, String problem, Throwable cause) {
    super("Credential provider class " + className + " in " + key + " " + problem, cause);
    this.key = key;
    this.className = className;
  }

  /** The configuration key the class was read from. */
  public String key() {
    return key;
  }

  /** The class as written in the configuration (after the provider mapping). */
  public String className() {
    return className;
  }
}
