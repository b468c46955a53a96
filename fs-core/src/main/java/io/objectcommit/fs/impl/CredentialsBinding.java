package io.objectcommit.fs.impl;

import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.AnonymousAWSCredentials;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;

/**
 * Builds the credential provider of an S3 client from {@link S3ClientSettings}, as S3A 3.3.4 does
 * ({@code S3AUtils.createAWSCredentialProviderSet}): the classes of {@code fs.s3a.aws.credentials.provider}
 * (Hadoop's default list {@link io.objectcommit.fs.FsCoreConstants#CREDENTIALS_PROVIDER_DEFAULT} when the key is
 * empty), asked in order by a {@link CredentialProviderChain}; a provider with nothing to give is skipped.
 *
 * <ul>
 *   <li>S3A's and the SDK's usual providers are our own classes, so that hadoop-aws need not be on the classpath
 *       and the environment can be injected in tests: {@value #S3A_TEMPORARY} (keys with the session token),
 *       {@value #S3A_SIMPLE} (keys), {@value #SDK_ENVIRONMENT} ({@code AWS_ACCESS_KEY_ID} and
 *       {@code AWS_SECRET_ACCESS_KEY}), {@value #S3A_IAM} and {@value #SDK_INSTANCE} (container, then EC2
 *       instance credentials), {@value #S3A_ANONYMOUS} (unsigned requests).</li>
 *   <li>Other classes are built through the first of a public constructor {@code (URI, Configuration)} (given
 *       {@code s3a://<bucket>} and the configuration with per-bucket options propagated), {@code (Configuration)},
 *       a public static {@code getInstance()} or {@code create()}, a public no-argument constructor.</li>
 *   <li>Half a key pair in the configuration (with the simple or temporary provider listed) or in the environment
 *       is an error naming the missing key, not "nothing to give".</li>
 * </ul>
 * Errors name {@code fs.s3a.aws.credentials.provider} (or its per-bucket form) and the class, never a secret.
 */
public final class CredentialsBinding {

  public static final String S3A_SIMPLE = "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider";
  public static final String S3A_TEMPORARY = "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider";
  public static final String S3A_ANONYMOUS = "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider";
  public static final String S3A_IAM = "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider";
  public static final String SDK_ENVIRONMENT = "com.amazonaws.auth.EnvironmentVariableCredentialsProvider";
  /** S3A replaces it with {@value #S3A_IAM}; so do we. */
  public static final String SDK_INSTANCE = "com.amazonaws.auth.InstanceProfileCredentialsProvider";

  private CredentialsBinding() {
  }

  /**
   * The credential provider for a client built from {@code settings}, reading the process environment.
   *
   * @throws IllegalArgumentException when a provider class fails to instantiate, or the environment holds half a
   *     key pair
   */
  public static AWSCredentialsProvider create(S3ClientSettings settings) {
    return create(settings, System::getenv);
  }

  /** As {@link #create(S3ClientSettings)}, with the environment variables read from {@code env}. */
  static CredentialProviderChain create(S3ClientSettings settings, UnaryOperator<String> env) {
    CredentialSettings c = settings.credentials();
    List<AWSCredentialsProvider> list = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (String name : c.providers) {
      list.add(instantiate(name, settings, env));
      names.add(displayName(name));
    }
    return new CredentialProviderChain(c.providerKey, names, list);
  }

  /** Checks what {@link #create} would check of the configuration, without instantiating custom classes. */
  static void validate(S3ClientSettings settings) {
    CredentialSettings c = settings.credentials();
    boolean temporary = c.providers.contains(S3A_TEMPORARY);
    if (temporary || c.providers.contains(S3A_SIMPLE)) {
      KeysCredentialsProvider.checkComplete(c, temporary);
    }
    for (String name : c.providers) {
      if (!isMapped(name)) {
        loadClass(name, c, c.providerConfiguration());
      }
    }
  }

  /** How messages name a provider: ours by their simple class name, custom classes by their full name. */
  static String displayName(String name) {
    return isMapped(name) ? name.substring(name.lastIndexOf('.') + 1) : name;
  }

  /** Whether {@code name} is one of the providers we implement ourselves. */
  static boolean isMapped(String name) {
    switch (name) {
      case S3A_SIMPLE:
      case S3A_TEMPORARY:
      case S3A_ANONYMOUS:
      case S3A_IAM:
      case SDK_ENVIRONMENT:
      case SDK_INSTANCE:
        return true;
      default:
        return false;
    }
  }

  private static AWSCredentialsProvider instantiate(String name, S3ClientSettings settings,
      UnaryOperator<String> env) {
    CredentialSettings c = settings.credentials();
    String shortName = displayName(name);
    switch (name) {
      case S3A_SIMPLE:
        return KeysCredentialsProvider.fromConfiguration(shortName, c, false, false);
      case S3A_TEMPORARY:
        // Speak of the session token only to a user who asked for session credentials alone.
        return KeysCredentialsProvider.fromConfiguration(shortName, c, true, !c.providers.contains(S3A_SIMPLE));
      case SDK_ENVIRONMENT:
        return KeysCredentialsProvider.fromEnvironment(shortName, env);
      case S3A_ANONYMOUS:
        return new AWSStaticCredentialsProvider(new AnonymousAWSCredentials()) {
          @Override
          public String toString() {
            return shortName;
          }
        };
      case S3A_IAM:
      case SDK_INSTANCE:
        return new InstanceCredentialsProvider(shortName, env);
      default:
        break;
    }
    Configuration conf = c.providerConfiguration();
    Class<?> cls = loadClass(name, c, conf);
    try {
      Constructor<?> ctor = publicConstructor(cls, URI.class, Configuration.class);
      if (ctor != null) {
        return (AWSCredentialsProvider) ctor.newInstance(URI.create("s3a://" + settings.bucket()), conf);
      }
      ctor = publicConstructor(cls, Configuration.class);
      if (ctor != null) {
        return (AWSCredentialsProvider) ctor.newInstance(conf);
      }
      for (String factory : new String[] {"getInstance", "create"}) {
        Method m = publicFactory(cls, factory);
        if (m != null) {
          return (AWSCredentialsProvider) m.invoke(null);
        }
      }
      ctor = publicConstructor(cls);
      if (ctor != null) {
        return (AWSCredentialsProvider) ctor.newInstance();
      }
    } catch (InvocationTargetException e) {
      throw failed(c, name, e.getCause() != null ? e.getCause() : e);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw failed(c, name, e);
    }
    throw noWayToBuild(c, name);
  }

  private static Class<?> loadClass(String name, CredentialSettings c, Configuration conf) {
    Class<?> cls;
    try {
      cls = conf.getClassByName(name);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException("Credential provider class " + name + " in " + c.providerKey
          + " not found", e);
    }
    if (!AWSCredentialsProvider.class.isAssignableFrom(cls)) {
      throw new IllegalArgumentException("Credential provider class " + name + " in " + c.providerKey
          + " does not implement " + AWSCredentialsProvider.class.getName());
    }
    if (publicConstructor(cls, URI.class, Configuration.class) == null
        && publicConstructor(cls, Configuration.class) == null && publicFactory(cls, "getInstance") == null
        && publicFactory(cls, "create") == null && publicConstructor(cls) == null) {
      throw noWayToBuild(c, name);
    }
    return cls;
  }

  private static Constructor<?> publicConstructor(Class<?> cls, Class<?>... args) {
    try {
      Constructor<?> ctor = cls.getConstructor(args);
      return Modifier.isAbstract(cls.getModifiers()) ? null : ctor;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static Method publicFactory(Class<?> cls, String name) {
    try {
      Method m = cls.getMethod(name);
      return Modifier.isStatic(m.getModifiers()) && AWSCredentialsProvider.class.isAssignableFrom(m.getReturnType())
          ? m : null;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static IllegalArgumentException noWayToBuild(CredentialSettings c, String name) {
    return new IllegalArgumentException("Credential provider class " + name + " in " + c.providerKey
        + " has no public constructor (URI, Configuration), (Configuration) or (), nor a static getInstance() or"
        + " create()");
  }

  private static IllegalArgumentException failed(CredentialSettings c, String name, Throwable cause) {
    // The cause is chained but its message is not repeated: it is the provider's, not ours to vet for secrets.
    return new IllegalArgumentException("Credential provider class " + name + " in " + c.providerKey
        + " could not be instantiated: " + cause.getClass().getName(), cause);
  }
}
