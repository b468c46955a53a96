package io.objectcommit.staging;

import static io.objectcommit.testsupport.proxy.S3Operation.MULTIPART_ABORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.staging.impl.JobAbortStage;
import io.objectcommit.staging.impl.JobLayout;
import io.objectcommit.staging.impl.TaskCommitStage;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Messages that tell the user to run a command name one that exists, with the user's own path. */
class StagingMessagesTest {

  private static final String JOB = "0b3f6c1e-1111-2222-3333-444455556666";

  @TempDir
  File tmp;

  @Test
  void theLeftoverHintNamesTheUploadsCommandWithTheUsersPath() {
    // the message text is the point of this test: cli-names.md fixes the command
    JobLayout layout = JobLayout.of(new Path("s3a://my-bucket/warehouse/table/"), JOB);
    assertTrue(layout.leftoverUploadsHint().contains(
        "`objectcommit uploads abort s3a://my-bucket/warehouse/table --older-than 0s`"), layout.leftoverUploadsHint());
    assertEquals("s3://b/", JobLayout.of(new Path("s3://b"), JOB).destination());
  }

  @Test
  void anIncompleteAbortIsTypedAndNamesTheCommand() throws IOException {
    InMemoryObjectStore store = InMemoryObjectStore.create("bucket");
    JobLayout layout = JobLayout.of(new Path("s3a://bucket/warehouse/table"), JOB);
    StagingOptions options = StagingOptions.from(new Configuration(false), "bucket", null);
    File dir = new File(tmp, "attempt");
    assertTrue(dir.mkdirs());
    Files.write(new File(dir, "part-00000-" + JOB + ".parquet").toPath(), StagingProtocolTest.content("x"));
    new TaskCommitStage(store, layout, options).commit(dir, 0, 1, "attempt_0", "host");
    store.addFault(FaultRule.failing(MULTIPART_ABORT));
    JobAbortIncompleteException e = assertThrows(JobAbortIncompleteException.class,
        () -> new JobAbortStage(store, layout, options).abort(false, 0));
    assertTrue(e.getCause() instanceof IOException);
    assertTrue(e.getMessage().contains("`objectcommit uploads abort s3a://bucket/warehouse/table --older-than 0s`"),
        e.getMessage());
  }
}
