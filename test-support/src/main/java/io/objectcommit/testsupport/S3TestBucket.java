package io.objectcommit.testsupport;

import com.amazonaws.services.s3.AmazonS3;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Assumptions;

/**
 * A fresh place in S3 for one test: a new bucket, or (with {@value S3TestSettings#BUCKET}) a new prefix in an
 * existing bucket. Relative paths given to the helpers are resolved under {@link #prefix()}.
 */
public final class S3TestBucket implements AutoCloseable {

  private final S3Endpoint endpoint;
  private final String name;
  private final String prefix;
  private final boolean created;
  private final PlainS3 plain;
  /** SDK v1 client, built on the first {@link #client()} call only: the Spark 4 lines have no SDK v1. */
  private AmazonS3 client;

  private S3TestBucket(S3Endpoint endpoint, String name, String prefix, boolean created) {
    this.endpoint = endpoint;
    this.name = name;
    this.prefix = prefix;
    this.created = created;
    this.plain = new PlainS3(endpoint);
  }

  /**
   * Creates the bucket (or picks the prefix in the shared bucket).
   *
   * @param hint readable part of the name, usually the test's name; sanitised to a valid DNS name
   */
  public static S3TestBucket create(S3Endpoint endpoint, String hint, String sharedBucket) {
    String unique = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    if (sharedBucket != null) {
      return new S3TestBucket(endpoint, sharedBucket, "objectcommit-tests/" + readable(hint) + "-" + unique + "/", false);
    }
    S3TestBucket b = new S3TestBucket(endpoint, bucketName(hint, unique), "", true);
    b.plain.createBucket(b.name);
    return b;
  }

  /** A valid DNS bucket name (3 to 63 of a-z, 0-9, '-'), readable from {@code hint}, ending in {@code unique}. */
  static String bucketName(String hint, String unique) {
    String base = "oc-" + readable(hint);
    base = base.substring(0, Math.min(base.length(), 63 - unique.length() - 1)).replaceAll("-+$", "");
    return base + "-" + unique;
  }

  private static String readable(String hint) {
    return hint.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-+|-+$)", "");
  }

  public S3Endpoint endpoint() {
    return endpoint;
  }

  /** The bucket name. */
  public String name() {
    return name;
  }

  /** The key prefix every test key lives under: empty for a fresh bucket, else ending with '/'. */
  public String prefix() {
    return prefix;
  }

  /**
   * An AWS SDK v1 client for the endpoint, owned by this fixture (do not shut it down); built on first use. For
   * tests that need SDK v1 types; others use {@link #plain()}, which works on every line.
   */
  public synchronized AmazonS3 client() {
    if (client == null) {
      client = endpoint.newClient();
    }
    return client;
  }

  /** The SDK-free client of this fixture (works without any AWS SDK on the class path). */
  public PlainS3 plain() {
    return plain;
  }

  /**
   * Turns versioning on for the bucket. Only on a bucket this fixture created (versioning cannot be turned off
   * again): on the shared bucket ({@value S3TestSettings#BUCKET}) the test is skipped.
   */
  public void enableVersioning() {
    Assumptions.assumeTrue(created, "versioning needs a bucket of the test's own, not the shared " + name);
    plain.enableVersioning(name);
  }

  /** The key of a relative path. */
  public String key(String relative) {
    return prefix + relative;
  }

  /** {@code scheme://bucket/prefix/relative}. */
  public String uri(String scheme, String relative) {
    return scheme + "://" + name + "/" + key(relative);
  }

  /** {@code s3a://bucket/prefix/relative}. */
  public String s3a(String relative) {
    return uri("s3a", relative);
  }

  /** The settings that point S3A at this bucket's endpoint (contains the secret: never log it). */
  public Map<String, String> s3aOptions() {
    return endpoint.s3aOptions();
  }

  /** A Hadoop configuration pointing S3A at the endpoint, with the FileSystem cache off for this scheme. */
  public Configuration hadoopConfiguration() {
    Configuration conf = new Configuration();
    s3aOptions().forEach(conf::set);
    return conf;
  }

  /** Keys under the prefix, sorted (one LIST request per 1,000 keys). */
  public List<String> listKeys(String relativePrefix) {
    List<String> keys = new ArrayList<>(plain.listKeys(name, key(relativePrefix)));
    keys.sort(null);
    return keys;
  }

  /**
   * Removes what the test left: on an external endpoint, every object under the prefix and the bucket if the
   * fixture created it. LocalStack's buckets vanish with the LocalStack instance, so nothing is sent there.
   */
  @Override
  public void close() {
    try {
      if (!endpoint.isLocalStack()) {
        plain.deleteObjects(name, listKeys(""));
        if (created) {
          plain.deleteBucket(name);
        }
      }
    } finally {
      synchronized (this) {
        if (client != null) {
          client.shutdown();
        }
      }
    }
  }

  @Override
  public String toString() {
    return "s3://" + name + "/" + prefix + " on " + endpoint;
  }
}
