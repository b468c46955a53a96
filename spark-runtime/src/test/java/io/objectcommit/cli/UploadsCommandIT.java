package io.objectcommit.cli;

import static io.objectcommit.cli.CheckpointCommandIT.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** objectcommit uploads list|abort against S3, settings given by --conf, -D key=value and -Dkey=value. */
@S3IntegrationTest
@Tag(TestTags.COMMAND)
class UploadsCommandIT {

  @Test
  void listAndAbort(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    String id = bucket.plain().initiateMultipartUpload(bucket.name(), bucket.key("t/part-0.parquet"));
    bucket.plain().initiateMultipartUpload(bucket.name(), bucket.key("other/part-0.parquet"));
    List<String> settings = CommandRun.settings(bucket, dir);
    String table = bucket.s3a("t");

    CommandRun young = CommandRun.of(args(settings, "uploads", "list", table));
    assertEquals(0, young.code, young.toString());
    assertTrue(young.out.contains("0 incomplete uploads older than 24h"), "default 24h: " + young);

    CommandRun list = CommandRun.of(args(settings, "uploads", "list", table, "--older-than", "0s"));
    assertEquals(0, list.code, list.toString());
    assertTrue(list.out.contains(id) && list.out.contains("1 incomplete uploads"), list.toString());

    CommandRun abort = CommandRun.of(args(settings, "uploads", "abort", table, "--older-than", "0s"));
    assertEquals(0, abort.code, abort.toString());
    assertTrue(abort.out.contains("aborted ") && abort.out.contains("1 incomplete uploads"), abort.toString());
    List<String> left = bucket.plain().listMultipartUploads(bucket.name(), bucket.key("")).stream().map(u -> u.key())
        .collect(Collectors.toList());
    assertEquals(List.of(bucket.key("other/part-0.parquet")), left, "only the prefix's upload was aborted");
  }

  @Test
  void aRefusedRequestIsAFailure(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    List<String> settings = CommandRun.settings(bucket, dir);
    CommandRun run = CommandRun.of(args(settings, "uploads", "list", "s3a://no-such-bucket-objectcommit/t",
        "--older-than", "0s"));
    assertEquals(1, run.code, run.toString());
    assertTrue(run.err.contains("objectcommit uploads failed:"), run.toString());
  }
}
