package io.objectcommit.store.impl.client;

import io.objectcommit.store.SdkMissingException;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.config.ConfigReader;
import java.io.IOException;
import org.apache.hadoop.util.VersionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the {@link SdkBinding} per {@value StoreConstants#SDK}: {@code auto} takes the SDK on the classpath
 * (v2 when only {@code software.amazon.awssdk.services.s3.S3Client} loads, v1 when only
 * {@code com.amazonaws.services.s3.AmazonS3} loads; with both, the one Hadoop's own S3A uses: v2 from Hadoop 3.4);
 * {@code v1}/{@code v2} force one. A missing SDK fails with {@link SdkMissingException} naming the key. Each
 * choice loads a new binding (a stateless object; its class is loaded once by its class loader), so nothing is kept
 * here between stores.
 */
public final class SdkBindings {

  private static final Logger LOG = LoggerFactory.getLogger(SdkBindings.class);

  static final String V1_CLIENT = "com.amazonaws.services.s3.AmazonS3";
  static final String V2_CLIENT = "software.amazon.awssdk.services.s3.S3Client";
  private static final String V1_BINDING = "io.objectcommit.store.impl.v1.V1Binding";
  private static final String V2_BINDING = "io.objectcommit.store.impl.v2.V2Binding";

  private SdkBindings() {
  }

  /** The binding the configuration of {@code reader}'s bucket asks for. */
  public static SdkBinding choose(ConfigReader reader) throws IOException {
    String value = reader.getChoice(StoreConstants.SDK, StoreConstants.SDK_DEFAULT, "auto", "v1", "v2");
    return choose(value, reader.effectiveKey(StoreConstants.SDK), SdkBindings.class.getClassLoader(),
        hadoopMajorMinor());
  }

  /**
   * @param value {@code auto}, {@code v1} or {@code v2}
   * @param key the key in force, for messages
   * @param loader where to look for the SDKs
   * @param hadoop Hadoop's version as {@code major * 100 + minor} (304 for 3.4), to break a tie
   */
  public static SdkBinding choose(String value, String key, ClassLoader loader, int hadoop) throws IOException {
    boolean v1 = loads(V1_CLIENT, loader);
    boolean v2 = loads(V2_CLIENT, loader);
    String name;
    switch (value) {
      case "v1":
        if (!v1) {
          throw missing(key, value, "AWS SDK v1 (" + V1_CLIENT + ") is not on the classpath; add"
              + " com.amazonaws:aws-java-sdk-s3 or aws-java-sdk-bundle (hadoop-aws 3.3 brings it), or set " + key
              + "=auto");
        }
        name = "v1";
        break;
      case "v2":
        if (!v2) {
          throw missing(key, value, "AWS SDK v2 (" + V2_CLIENT + ") is not on the classpath; add"
              + " software.amazon.awssdk:bundle (hadoop-aws 3.4 brings it), or set " + key + "=auto");
        }
        name = "v2";
        break;
      default:
        if (!v1 && !v2) {
          throw missing(key, value, "neither AWS SDK is on the classpath (" + V2_CLIENT + " nor " + V1_CLIENT
              + "); add the SDK of your hadoop-aws: software.amazon.awssdk:bundle with hadoop-aws 3.4+,"
              + " com.amazonaws:aws-java-sdk-bundle with hadoop-aws 3.3");
        }
        name = v1 && v2 ? (hadoop >= 304 ? "v2" : "v1") : v2 ? "v2" : "v1";
    }
    return load(name, loader);
  }

  private static SdkBinding load(String name, ClassLoader loader) {
    String cls = "v2".equals(name) ? V2_BINDING : V1_BINDING;
    try {
      SdkBinding b = (SdkBinding) Class.forName(cls, true, loader).getDeclaredConstructor().newInstance();
      LOG.debug("S3 requests through AWS SDK {} ({})", name, cls);
      return b;
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalStateException("Cannot load the SDK " + name + " binding " + cls + ": " + e, e);
    }
  }

  private static boolean loads(String cls, ClassLoader loader) {
    try {
      Class.forName(cls, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static SdkMissingException missing(String key, String value, String why) {
    return new SdkMissingException("Cannot talk to S3 (" + key + "=" + value + "): " + why, key, value);
  }

  /** Hadoop's version as {@code major * 100 + minor}, 0 when unknown. */
  static int hadoopMajorMinor() {
    try {
      String v = VersionInfo.getVersion();
      String[] p = v.split("[.-]");
      return Integer.parseInt(p[0]) * 100 + Integer.parseInt(p[1]);
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("Hadoop version unknown", e);
      return 0;
    }
  }
}
