package io.objectcommit.it.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.it.SparkSessions;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the settings a user of {@code s3a://} has (endpoint, region, path style, access and secret key) and
 * {@code fs.s3a.aws.credentials.provider} left at Hadoop's default list: a checkpointed query on {@code ckpt://}
 * and a write with each committer give exact results. One Spark session for the class.
 */
@S3IntegrationTest
@Tag(TestTags.COMPONENT)
class KeysInConfigurationIT {

  private static S3TestBucket bucket;
  private static SparkSession spark;

  @BeforeAll
  static void start(S3TestBucket b) {
    bucket = b;
    spark = SparkSessions.local("defaults-keys", "local[2]", UserSettings.s3a(b.endpoint(), true),
        UserSettings.spark());
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.close();
    }
  }

  @Test
  void theProviderListIsHadoopsDefault() {
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    assertEquals(List.of(new Configuration().getTrimmedStrings("fs.s3a.aws.credentials.provider")),
        List.of(hadoop.getTrimmedStrings("fs.s3a.aws.credentials.provider")));
    assertEquals("org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider",
        hadoop.getTrimmedStrings("fs.s3a.aws.credentials.provider")[0]);
  }

  @Test
  void checkpointedQueryRestartsWithExactCounts(@TempDir Path input) throws Exception {
    String checkpoint = "ckpt://" + bucket.name() + "/" + bucket.prefix() + "checkpoint";
    assertNull(DefaultsJob.checkpoint(spark, checkpoint, input));
    assertTrue(UserSettings.committed(bucket.endpoint(), checkpoint, 2), "batch 2 is committed in the checkpoint");
  }

  @Test
  void directCommitterWritesExactRows() {
    assertNull(DefaultsJob.write(spark, UserSettings.DIRECT, bucket.s3a("direct")));
    assertEquals(DefaultsJob.FILES, parquetObjects("direct/").size());
  }

  @Test
  void stagingCommitterWritesExactRows() {
    assertNull(DefaultsJob.write(spark, UserSettings.STAGING, bucket.s3a("staging")));
    assertEquals(DefaultsJob.FILES, parquetObjects("staging/").size());
  }

  private List<String> parquetObjects(String rel) {
    return bucket.listKeys(rel).stream().filter(k -> k.endsWith(".parquet")).collect(Collectors.toList());
  }
}
