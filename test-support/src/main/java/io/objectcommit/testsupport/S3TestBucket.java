package io.objectcommit.testsupport;

import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.DeleteObjectsRequest;
import com.amazonaws.services.s3.model.ListObjectsV2Request;
import com.amazonaws.services.s3.model.ListObjectsV2Result;
import com.amazonaws.services.s3.model.S3ObjectSummary;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * A fresh place in S3 for one test: a new bucket, or (with {@value S3TestSettings#BUCKET}) a new prefix in an
 * existing bucket. Relative paths given to the helpers are resolved under {@link #prefix()}.
 */
public final class S3TestBucket implements AutoCloseable {

  private final S3Endpoint endpoint;
  private final String name;
  private final String prefix;
  private final boolean created;
  private final AmazonS3 client;

  private S3TestBucket(S3Endpoint endpoint, String name, String prefix, boolean created) {
    this.endpoint = endpoint;
    this.name = name;
    this.prefix = prefix;
    this.created = created;
    this.client = endpoint.newClient();
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
    b.client.createBucket(b.name);
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

  /** A client for the endpoint, owned by this fixture (do not shut it down). */
  public AmazonS3 client() {
    return client;
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
  public org.apache.hadoop.conf.Configuration hadoopConfiguration() {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
    s3aOptions().forEach(conf::set);
    return conf;
  }

  /** Keys under the prefix, sorted (one LIST request per 1,000 keys). */
  public List<String> listKeys(String relativePrefix) {
    ListObjectsV2Request req = new ListObjectsV2Request().withBucketName(name).withPrefix(key(relativePrefix));
    List<String> keys = new java.util.ArrayList<>();
    ListObjectsV2Result r;
    do {
      r = client.listObjectsV2(req);
      r.getObjectSummaries().stream().map(S3ObjectSummary::getKey).forEach(keys::add);
      req.setContinuationToken(r.getNextContinuationToken());
    } while (r.isTruncated());
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
        List<String> keys = listKeys("");
        for (int i = 0; i < keys.size(); i += 1000) {
          List<DeleteObjectsRequest.KeyVersion> batch = keys.subList(i, Math.min(keys.size(), i + 1000)).stream()
              .map(DeleteObjectsRequest.KeyVersion::new).collect(Collectors.toList());
          client.deleteObjects(new DeleteObjectsRequest(name).withKeys(batch));
        }
        if (created) {
          client.deleteBucket(name);
        }
      }
    } finally {
      client.shutdown();
    }
  }

  @Override
  public String toString() {
    return "s3://" + name + "/" + prefix + " on " + endpoint;
  }
}
