package io.objectcommit.fs.impl;

import com.amazonaws.SdkClientException;
import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.AnonymousAWSCredentials;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.auth.BasicSessionCredentials;
import com.amazonaws.auth.DefaultAWSCredentialsProviderChain;
import com.amazonaws.auth.EC2ContainerCredentialsProviderWrapper;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Builds the credential provider of an S3 client from {@link S3ClientSettings}, with S3A's semantics.
 *
 * <ul>
 *   <li>No {@code fs.s3a.aws.credentials.provider}: the access and secret keys when both are set (session
 *       credentials when {@code fs.s3a.session.token} is set too), else the AWS SDK's
 *       {@link DefaultAWSCredentialsProviderChain}. One key without the other is an error.</li>
 *   <li>A list of classes: each instantiated through the first of a public constructor {@code (URI,
 *       Configuration)} (given {@code s3a://<bucket>} and the configuration with per-bucket options propagated),
 *       a constructor {@code (Configuration)}, a public static {@code getInstance()} or {@code create()}, a public
 *       no-argument constructor; asked in order, the first that answers wins.</li>
 *   <li>S3A's own providers are mapped, so that hadoop-aws need not be on the classpath:
 *       {@value #S3A_SIMPLE} (access/secret keys), {@value #S3A_TEMPORARY} (with the session token),
 *       {@value #S3A_ANONYMOUS} (unsigned requests), {@value #S3A_IAM} (container, then instance credentials).</li>
 * </ul>
 * Errors name {@code fs.s3a.aws.credentials.provider} (or its per-bucket form) and the class, never a secret.
 */
public final class CredentialsBinding {

  public static final String S3A_SIMPLE = "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider";
  public static final String S3A_TEMPORARY = "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider";
  public static final String S3A_ANONYMOUS = "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider";
  public static final String S3A_IAM = "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider";

  private CredentialsBinding() {
  }

  /**
   * The credential provider for a client built from {@code settings}: a {@link ProviderChain} of the configured
   * providers, in order.
   *
   * @throws IllegalArgumentException when a provider class is unknown, unusable or fails to instantiate, or
   *     keys it needs are missing
   */
  public static AWSCredentialsProvider create(S3ClientSettings settings) {
    CredentialSettings c = settings.credentials();
    List<AWSCredentialsProvider> list = new ArrayList<>();
    if (c.providers.isEmpty()) {
      if (c.accessKey != null || c.secretKey != null || c.sessionToken != null) {
        list.add(staticKeys(c, c.sessionToken != null, null));
      } else {
        list.add(DefaultAWSCredentialsProviderChain.getInstance());
      }
    } else {
      for (String name : c.providers) {
        list.add(instantiate(name, settings));
      }
    }
    return new ProviderChain(list);
  }

  /** Checks what {@link #create} would check, without instantiating custom classes. */
  static void validate(S3ClientSettings settings) {
    CredentialSettings c = settings.credentials();
    if (c.providers.isEmpty()) {
      if (c.accessKey != null || c.secretKey != null || c.sessionToken != null) {
        staticKeys(c, c.sessionToken != null, null);
      }
      return;
    }
    for (String name : c.providers) {
      if (!mapped(name, c)) {
        loadClass(name, c, settings.credentials().providerConfiguration());
      }
    }
  }

  private static boolean mapped(String name, CredentialSettings c) {
    switch (name) {
      case S3A_SIMPLE:
        staticKeys(c, false, name);
        return true;
      case S3A_TEMPORARY:
        staticKeys(c, true, name);
        return true;
      case S3A_ANONYMOUS:
      case S3A_IAM:
        return true;
      default:
        return false;
    }
  }

  private static AWSCredentialsProvider instantiate(String name, S3ClientSettings settings) {
    CredentialSettings c = settings.credentials();
    switch (name) {
      case S3A_SIMPLE:
        return staticKeys(c, false, name);
      case S3A_TEMPORARY:
        return staticKeys(c, true, name);
      case S3A_ANONYMOUS:
        return new AWSStaticCredentialsProvider(new AnonymousAWSCredentials());
      case S3A_IAM:
        return new EC2ContainerCredentialsProviderWrapper();
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

  /** Static keys; {@code forWhat} is the mapped S3A class, null for the default (no provider list). */
  private static AWSCredentialsProvider staticKeys(CredentialSettings c, boolean session, String forWhat) {
    List<String> missing = new ArrayList<>();
    if (c.accessKey == null) {
      missing.add(c.accessKeyName);
    }
    if (c.secretKey == null) {
      missing.add(c.secretKeyName);
    }
    if (session && c.sessionToken == null) {
      missing.add(c.sessionTokenName);
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("Incomplete S3 credentials" + (forWhat == null ? "" : " for " + forWhat
          + " in " + c.providerKey) + ": " + String.join(" and ", missing) + (missing.size() == 1 ? " is" : " are")
          + " not set" + (forWhat == null ? " (set all of them, or none to use the AWS default chain)" : ""));
    }
    AWSCredentials creds = session
        ? new BasicSessionCredentials(c.accessKey, c.secretKey, c.sessionToken)
        : new BasicAWSCredentials(c.accessKey, c.secretKey);
    return new AWSStaticCredentialsProvider(creds) {
      @Override
      public String toString() {
        return (session ? "session" : "static") + " credentials " + Secrets.mask(c.accessKey);
      }
    };
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
    // The cause is chained but its message is not repeated: it is the provider's, not ours to vet.
    return new IllegalArgumentException("Credential provider class " + name + " in " + c.providerKey
        + " could not be instantiated: " + cause.getClass().getName(), cause);
  }

  /**
   * Asks its providers in order; the first that returns credentials wins and is asked first from then on, as
   * S3A's list does. When all fail, one exception lists each provider's failure.
   */
  public static final class ProviderChain implements AWSCredentialsProvider {

    private final List<AWSCredentialsProvider> providers;
    private volatile AWSCredentialsProvider last;

    ProviderChain(List<AWSCredentialsProvider> providers) {
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
          return l.getCredentials();
        } catch (RuntimeException e) {
          last = null;
        }
      }
      StringBuilder failures = new StringBuilder();
      RuntimeException first = null;
      for (AWSCredentialsProvider p : providers) {
        try {
          AWSCredentials creds = p.getCredentials();
          if (creds != null) {
            last = p;
            return creds;
          }
          failures.append("; ").append(p).append(": no credentials");
        } catch (RuntimeException e) {
          first = first == null ? e : first;
          failures.append("; ").append(p).append(": ").append(e.getMessage());
        }
      }
      throw new SdkClientException("No AWS credentials from any provider" + failures, first);
    }

    @Override
    public void refresh() {
      last = null;
      for (AWSCredentialsProvider p : providers) {
        p.refresh();
      }
    }

    @Override
    public String toString() {
      return "ProviderChain" + providers;
    }
  }
}
