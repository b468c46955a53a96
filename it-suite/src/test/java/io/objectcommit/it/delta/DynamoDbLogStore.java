package io.objectcommit.it.delta;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.regions.Region;
import com.amazonaws.regions.RegionImpl;
import com.amazonaws.regions.RegionMetadata;
import com.amazonaws.regions.RegionUtils;
import io.objectcommit.testsupport.MotoDynamoDb;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Delta's {@code S3DynamoDBLogStore} as a contender, with DynamoDB served by moto on 127.0.0.1
 * ({@link MotoDynamoDb}) and S3 wherever the session's S3A settings point. Its artifact
 * ({@code io.delta:delta-storage-s3-dynamodb}) does not resolve from this build's Maven repository: it runs only when
 * the system property {@value #JAR_PROPERTY} names a jar of it built from Delta's sources (docs/benchmarks.md, "Delta
 * log stores", gives the commands); the jar is never part of this repository. Load this class only then: it links
 * against the AWS SDK v1, which the Spark 4 lines' class path lacks.
 *
 * <p>The jar is on {@link #classLoader()}, a child of the test's class loader: Delta resolves the log store class
 * through the thread's context class loader (Spark's {@code Utils.classForName}), so the caller sets it around the
 * contender's Spark work. Delta 3.3.2's store has no setting for the DynamoDB endpoint: its AWS SDK v1 client takes the
 * endpoint of the region ({@code ddb.region}) from the SDK's region metadata, always over HTTPS. While this object is
 * open, the JVM's region metadata name moto for DynamoDB in {@value #REGION} (every other service and region as
 * before), and the SDK does not check certificates (moto's is self-signed); {@link #close()} restores both.
 * Requires the AWS SDK v1 on the class path: the Spark 3.5 line.
 */
final class DynamoDbLogStore implements AutoCloseable {

  /** The system property naming the jar of {@code S3DynamoDBLogStore} (a constant: reading it loads nothing). */
  static final String JAR_PROPERTY = "objectcommit.delta.dynamodb-jar";
  static final String LOG_STORE = "io.delta.storage.S3DynamoDBLogStore";
  private static final String PREFIX = "spark.io.delta.storage.S3DynamoDBLogStore.";
  private static final String REGION = "us-east-1";
  private static final String DYNAMODB = "dynamodb";
  /** The AWS SDK v1's switch (SDKGlobalConfiguration) for clients created while it is set. */
  private static final String NO_CERT_CHECKS = "com.amazonaws.sdk.disableCertChecking";

  private final MotoDynamoDb moto;
  private final URLClassLoader loader;

  private DynamoDbLogStore(MotoDynamoDb moto, URLClassLoader loader) {
    this.moto = moto;
    this.loader = loader;
  }

  /** Starts moto under {@code workDir} and points the SDK's DynamoDB endpoint of {@value #REGION} at it. */
  static DynamoDbLogStore start(Path jar, Path workDir) throws IOException {
    MotoDynamoDb moto = MotoDynamoDb.start(workDir);
    try {
      RegionUtils.initializeWithMetadata(withDynamoDbAt(moto.hostAndPort()));
      System.setProperty(NO_CERT_CHECKS, "true");
      URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
          DynamoDbLogStore.class.getClassLoader());
      return new DynamoDbLogStore(moto, loader);
    } catch (IOException | RuntimeException e) {
      moto.close();
      throw e;
    }
  }

  /** The SDK's region metadata with {@code endpoint} as DynamoDB's in {@value #REGION}. */
  private static RegionMetadata withDynamoDbAt(String endpoint) {
    Region standard = RegionUtils.getRegion(REGION);
    List<Region> regions = new ArrayList<>();
    RegionUtils.getRegions().stream().filter(r -> !r.getName().equals(REGION)).forEach(regions::add);
    regions.add(new Region(new RegionImpl() {
      @Override
      public String getName() {
        return standard.getName();
      }

      @Override
      public String getDomain() {
        return standard.getDomain();
      }

      @Override
      public String getPartition() {
        return standard.getPartition();
      }

      @Override
      public boolean isServiceSupported(String service) {
        return standard.isServiceSupported(service);
      }

      @Override
      public String getServiceEndpoint(String service) {
        return DYNAMODB.equals(service) ? endpoint : standard.getServiceEndpoint(service);
      }

      @Override
      public boolean hasHttpEndpoint(String service) {
        return standard.hasHttpEndpoint(service);
      }

      @Override
      public boolean hasHttpsEndpoint(String service) {
        return standard.hasHttpsEndpoint(service);
      }

      @Override
      public Collection<String> getAvailableEndpoints() {
        return standard.getAvailableEndpoints();
      }
    }));
    return new RegionMetadata(regions);
  }

  /** The loader that finds {@value #LOG_STORE}: the thread context class loader of the contender's Spark work. */
  ClassLoader classLoader() {
    return loader;
  }

  /** The Delta session settings of the contender: Delta's documented keys, DynamoDB table {@code table}. */
  Map<String, String> sparkConf(String table) {
    Map<String, String> m = DeltaTables.sparkConf(LOG_STORE);
    m.put(PREFIX + "ddb.tableName", table);
    m.put(PREFIX + "ddb.region", REGION);
    m.put(PREFIX + "credentials.provider", S3aKeys.class.getName());
    return m;
  }

  /** moto, to count the DynamoDB requests. */
  MotoDynamoDb dynamoDb() {
    return moto;
  }

  @Override
  public void close() throws IOException {
    System.clearProperty(NO_CERT_CHECKS);
    RegionUtils.initialize();
    try {
      loader.close();
    } finally {
      moto.close();
    }
  }

  /**
   * The DynamoDB credentials: the session's S3A keys (moto checks no DynamoDB signature). Delta's store creates its
   * credentials provider by class name, with a {@link Configuration} constructor when there is one.
   */
  public static final class S3aKeys implements AWSCredentialsProvider {

    private final AWSCredentials keys;

    public S3aKeys(Configuration conf) {
      keys = new BasicAWSCredentials(conf.get("fs.s3a.access.key", "test"), conf.get("fs.s3a.secret.key", "test"));
    }

    @Override
    public AWSCredentials getCredentials() {
      return keys;
    }

    @Override
    public void refresh() {
    }
  }
}
