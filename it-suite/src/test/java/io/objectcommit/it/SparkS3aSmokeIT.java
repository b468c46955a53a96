package io.objectcommit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Proves the harness: Spark local[2] writes Parquet to s3a:// on the provided endpoint and reads it back. */
@S3IntegrationTest
@Tag(TestTags.SMOKE)
class SparkS3aSmokeIT {

  @Test
  void writesAndReadsParquetThroughS3a(S3TestBucket bucket) throws Exception {
    long rows = 20_000;
    try (SparkSession spark = SparkSessions.local("smoke-it", bucket.s3aOptions())) {
      SmokeJob.write(spark, bucket.s3a("smoke/table"), rows, 3);

      List<String> keys = bucket.listKeys("smoke/table/");
      List<String> parquet = keys.stream().filter(k -> k.endsWith(".parquet")).collect(Collectors.toList());
      assertEquals(3, parquet.size(), "one Parquet object per partition: " + keys);
      assertTrue(keys.contains(bucket.key("smoke/table/_SUCCESS")), "job commit marker: " + keys);

      assertEquals(SmokeJob.expected(rows), SmokeJob.read(spark, bucket.s3a("smoke/table")));
    }
  }
}
