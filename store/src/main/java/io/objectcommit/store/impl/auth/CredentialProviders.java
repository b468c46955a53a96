package io.objectcommit.store.impl.auth;

import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.impl.client.S3ClientSettings;
import io.objectcommit.store.impl.v1.V1CredentialsBinding;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The SDK-neutral half of credential resolution, shared by both bindings ({@link V1CredentialsBinding} on the AWS
 * SDK v1, {@code v2.V2CredentialsBinding} on the SDK v2): which providers are asked and in what order, the
 * providers we implement ourselves whatever class name the user wrote for them, and how a custom class is found
 * and built. Only the adapters to each SDK's provider interface are written twice.
 *
 * <p>The list is {@code fs.s3a.aws.credentials.provider} (per-bucket form first), each entry first renamed by
 * {@value StoreConstants#CREDENTIALS_PROVIDER_MAPPING} when it names it (as S3A 3.4 does); an empty list means
 * the default list of the Hadoop line the binding stands for ({@link Line#defaults()}), as in S3A.
 */
public final class CredentialProviders {

  public static final String S3A_SIMPLE = "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider";
  public static final String S3A_TEMPORARY = "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider";
  public static final String S3A_ANONYMOUS = "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider";
  public static final String S3A_IAM = "org.apache.hadoop.fs.s3a.auth.IAMInstanceCredentialsProvider";
  /** The SDK v1 environment provider (Hadoop 3.3's default list); S3A 3.4 maps it to {@link #V2_ENVIRONMENT}. */
  public static final String SDK_ENVIRONMENT = "com.amazonaws.auth.EnvironmentVariableCredentialsProvider";
  /** The SDK v2 environment provider (Hadoop 3.4's default list). */
  public static final String V2_ENVIRONMENT =
      "software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider";
  /** S3A replaces it with {@value #S3A_IAM}; so do we. */
  public static final String SDK_INSTANCE = "com.amazonaws.auth.InstanceProfileCredentialsProvider";
  /** S3A 3.4 maps it to {@value #S3A_IAM}; so do we (on both SDKs). */
  public static final String SDK_CONTAINER_WRAPPER = "com.amazonaws.auth.EC2ContainerCredentialsProviderWrapper";
  /** S3A 3.4 maps this (v1 credentials, not a provider) to {@value #S3A_ANONYMOUS}. */
  public static final String SDK_ANONYMOUS = "com.amazonaws.auth.AnonymousAWSCredentials";

  /** The interface of an SDK v1 provider, named for checks that must not load the SDK. */
  static final String V1_INTERFACE = "com.amazonaws.auth.AWSCredentialsProvider";
  /** The interface of an SDK v2 provider, named for checks that must not load the SDK. */
  static final String V2_INTERFACE = "software.amazon.awssdk.auth.credentials.AwsCredentialsProvider";

  /** The providers we implement ourselves, so that the environment can be injected in tests and errors are ours. */
  public enum BuiltIn {
    /** Keys and session token from the configuration. */
    TEMPORARY,
    /** Keys from the configuration. */
    SIMPLE,
    /** Keys from {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY} (and {@code AWS_SESSION_TOKEN}). */
    ENVIRONMENT,
    /** Container credentials, else EC2 instance credentials. */
    INSTANCE,
    /** Unsigned requests. */
    ANONYMOUS
  }

  /** The Hadoop line a binding stands for: its default provider list and how custom classes are built. */
  public enum Line {
    /** Hadoop 3.3 (Spark 3.5), S3A on the AWS SDK v1. */
    HADOOP_3_3(Arrays.asList(S3A_TEMPORARY, S3A_SIMPLE, SDK_ENVIRONMENT, S3A_IAM), V1_INTERFACE,
        "getInstance", "create"),
    /**
     * Hadoop 3.4 (Spark 4), S3A on the AWS SDK v2; its default when the list is empty (S3A 3.4's
     * {@code STANDARD_AWS_PROVIDERS}) has another order than its core-default.xml.
     */
    HADOOP_3_4(Arrays.asList(V2_ENVIRONMENT, S3A_IAM, S3A_SIMPLE, S3A_TEMPORARY), V2_INTERFACE, "create");

    private final List<String> defaults;
    private final String providerInterface;
    private final List<String> factories;

    Line(List<String> defaults, String providerInterface, String... factories) {
      this.defaults = Collections.unmodifiableList(defaults);
      this.providerInterface = providerInterface;
      this.factories = Collections.unmodifiableList(Arrays.asList(factories));
    }

    /** The providers asked when the list is empty. */
    public List<String> defaults() {
      return defaults;
    }

    /** The provider interface custom classes must implement. */
    public String providerInterface() {
      return providerInterface;
    }
  }

  /** Our providers by the class names that stand for them (a constant table). */
  private static final Map<String, BuiltIn> BUILT_IN = Map.of(
      S3A_TEMPORARY, BuiltIn.TEMPORARY,
      S3A_SIMPLE, BuiltIn.SIMPLE,
      SDK_ENVIRONMENT, BuiltIn.ENVIRONMENT,
      V2_ENVIRONMENT, BuiltIn.ENVIRONMENT,
      S3A_IAM, BuiltIn.INSTANCE,
      SDK_INSTANCE, BuiltIn.INSTANCE,
      SDK_CONTAINER_WRAPPER, BuiltIn.INSTANCE,
      S3A_ANONYMOUS, BuiltIn.ANONYMOUS,
      SDK_ANONYMOUS, BuiltIn.ANONYMOUS);

  private CredentialProviders() {
  }

  /** Which of our providers {@code name} stands for, or null for a custom class. */
  public static BuiltIn builtIn(String name) {
    return BUILT_IN.get(name);
  }

  /** How messages name a provider: ours by their simple class name, custom classes by their full name. */
  public static String displayName(String name) {
    return builtIn(name) != null ? name.substring(name.lastIndexOf('.') + 1) : name;
  }

  /** The providers {@code settings} asks, in order, on {@code line}: never empty. */
  public static List<String> names(S3ClientSettings settings, Line line) {
    List<String> configured = settings.credentials().providers;
    return configured.isEmpty() ? line.defaults : configured;
  }

  /** The key the list was read from, for errors. */
  public static String providerKey(S3ClientSettings settings) {
    return settings.credentials().providerKey;
  }

  /**
   * Splits a provider list ({@code ,} or white space between entries) and applies {@code mapping} (entries
   * {@code old=new}, as {@value StoreConstants#CREDENTIALS_PROVIDER_MAPPING}).
   *
   * @throws IllegalArgumentException naming {@code mappingKey} for an entry that is not {@code old=new}
   */
  public static List<String> parse(String value, String mappingValue, String mappingKey) {
    Map<String, String> mapping = new HashMap<>();
    for (String entry : split(mappingValue)) {
      int eq = entry.indexOf('=');
      if (eq <= 0 || eq == entry.length() - 1) {
        throw new IllegalArgumentException("Invalid entry '" + entry + "' in " + mappingKey
            + ": expected old.ClassName=new.ClassName");
      }
      mapping.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
    }
    List<String> providers = new ArrayList<>();
    for (String p : split(value)) {
      // As S3A 3.4: our own remapping of SDK v1 names first; the user's mapping for the other names.
      providers.add(BUILT_IN.containsKey(p) ? p : mapping.getOrDefault(p, p));
    }
    return providers;
  }

  private static List<String> split(String value) {
    List<String> out = new ArrayList<>();
    if (value != null) {
      for (String p : value.split("[,\\s]+")) {
        if (!p.isEmpty()) {
          out.add(p);
        }
      }
    }
    return out;
  }

  /**
   * Checks, when the settings are read and on either SDK, what can be checked without one: half a key pair (when
   * the simple or temporary provider is asked) and custom classes (found, a provider of either SDK, buildable).
   *
   * @throws IllegalArgumentException naming the key
   */
  public static void validate(CredentialSettings c) {
    // Both lines' default lists ask the same providers (in another order).
    List<String> asked = c.providers.isEmpty() ? Line.HADOOP_3_3.defaults() : c.providers;
    boolean temporary = asked.contains(S3A_TEMPORARY);
    if (temporary || asked.contains(S3A_SIMPLE)) {
      CredentialKeys.checkComplete(c, temporary);
    }
    for (String name : asked) {
      if (builtIn(name) == null) {
        check(name, c);
      }
    }
  }

  /**
   * Checks what can be checked without an SDK: the class exists, implements the provider interface of either
   * SDK (checked by name), and has a way to be built.
   *
   * @throws CredentialProviderException naming the key and the class
   */
  private static void check(String name, CredentialSettings c) {
    Class<?> cls = load(name, c.providerKey, c.providerConfiguration());
    if (!implementsByName(cls, V1_INTERFACE) && !implementsByName(cls, V2_INTERFACE)) {
      throw new CredentialProviderException(c.providerKey, name, "does not implement " + V1_INTERFACE
          + " (AWS SDK v1, Hadoop 3.3) nor " + V2_INTERFACE + " (AWS SDK v2, Hadoop 3.4)", null);
    }
    if (!buildable(cls, Arrays.asList("getInstance", "create"))) {
      throw noWayToBuild(c.providerKey, name, Line.HADOOP_3_3);
    }
  }

  private static boolean implementsByName(Class<?> cls, String iface) {
    for (Class<?> k = cls; k != null; k = k.getSuperclass()) {
      for (Class<?> i : k.getInterfaces()) {
        if (i.getName().equals(iface) || implementsByName(i, iface)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Builds the custom provider class {@code name} as S3A does: the first of a public constructor
   * {@code (URI, Configuration)} (given {@code s3a://<bucket>} and the configuration with per-bucket options
   * propagated), {@code (Configuration)}, a public static factory of the line ({@code getInstance()} or
   * {@code create()} on Hadoop 3.3, {@code create()} on 3.4), a public no-argument constructor.
   *
   * @param type the SDK's provider interface
   * @throws CredentialProviderException naming the key and the class when it cannot be built
   */
  public static <T> T instantiate(S3ClientSettings settings, String name, Class<T> type, Line line) {
    CredentialSettings c = settings.credentials();
    Configuration conf = c.providerConfiguration();
    Class<?> cls = load(name, c.providerKey, conf);
    if (!type.isAssignableFrom(cls)) {
      throw new CredentialProviderException(c.providerKey, name, "does not implement " + type.getName()
          + (line == Line.HADOOP_3_4 ? " (the AWS SDK v2 interface that Hadoop 3.4's S3A uses; SDK v1 providers"
              + " cannot be used with it)" : ""), null);
    }
    try {
      Constructor<?> ctor = publicConstructor(cls, URI.class, Configuration.class);
      if (ctor != null) {
        return type.cast(ctor.newInstance(URI.create("s3a://" + settings.bucket()), conf));
      }
      ctor = publicConstructor(cls, Configuration.class);
      if (ctor != null) {
        return type.cast(ctor.newInstance(conf));
      }
      for (String factory : line.factories) {
        Method m = publicFactory(cls, factory);
        if (m != null) {
          return type.cast(m.invoke(null));
        }
      }
      ctor = publicConstructor(cls);
      if (ctor != null) {
        return type.cast(ctor.newInstance());
      }
    } catch (InvocationTargetException e) {
      throw failed(c.providerKey, name, e.getCause() != null ? e.getCause() : e);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw failed(c.providerKey, name, e);
    }
    throw noWayToBuild(c.providerKey, name, line);
  }

  private static Class<?> load(String name, String key, Configuration conf) {
    try {
      return conf.getClassByName(name);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new CredentialProviderException(key, name, "not found", e);
    }
  }

  private static boolean buildable(Class<?> cls, List<String> factories) {
    if (publicConstructor(cls, URI.class, Configuration.class) != null
        || publicConstructor(cls, Configuration.class) != null || publicConstructor(cls) != null) {
      return true;
    }
    return factories.stream().anyMatch(f -> publicFactory(cls, f) != null);
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
      // Returns the class, a subclass, or an interface it implements (the SDK's provider interface).
      Class<?> r = m.getReturnType();
      return Modifier.isStatic(m.getModifiers()) && (cls.isAssignableFrom(r) || r.isAssignableFrom(cls))
          && r != Object.class ? m : null;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static CredentialProviderException noWayToBuild(String key, String name, Line line) {
    return new CredentialProviderException(key, name, "has no public constructor (URI, Configuration),"
        + " (Configuration) or (), nor a static " + String.join("() or ", line.factories) + "()", null);
  }

  private static CredentialProviderException failed(String key, String name, Throwable cause) {
    // The cause is chained but its message is not repeated: it is the provider's, not ours to vet for secrets.
    return new CredentialProviderException(key, name, "could not be instantiated: " + cause.getClass().getName(),
        cause);
  }
}
