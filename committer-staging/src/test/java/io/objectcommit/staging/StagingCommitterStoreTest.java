package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole committer, as Hadoop and Spark create it, gets its store from {@code ObjectStores.open}: here the
 * in-memory store the configuration names ({@link InMemoryStoreFactory}), with a fault injected into it.
 */
class StagingCommitterStoreTest {

  private static final String BUCKET = "staging-unit-bucket";
  private static final String FILE = "part-00000-c000.parquet";

  @TempDir
  File tmp;

  private final JobID jobId = new JobID("202611221200", 3);
  private final Path output = new Path("s3a://" + BUCKET + "/warehouse/table");

  private JobConf conf() {
    JobConf conf = new JobConf(false);
    InMemoryStoreFactory.use(conf);
    conf.set(StagingConstants.BUFFER_DIRS, tmp.getAbsolutePath());
    conf.set(StagingConstants.TASK_COUNT, "1");
    return conf;
  }

  /** Task 0, attempt 0: set up, one file written into its work path, committed. */
  private void runTask(JobConf conf) throws IOException {
    TaskAttemptContext task = new TaskAttemptContextImpl(new JobConf(conf),
        new TaskAttemptID(new TaskID(jobId, TaskType.MAP, 0), 0));
    StagingCommitter committer = new StagingCommitter(output, task);
    committer.setupTask(task);
    File dir = new File(committer.getWorkPath().toUri());
    Files.write(new File(dir, FILE).toPath(), StagingProtocolTest.content("rows")); // a pending upload
    committer.commitTask(task);
  }

  @Test
  void taskAndJobCommitWriteToTheStoreTheConfigurationNames() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.register(BUCKET);
    JobConf conf = conf();
    JobContext job = new JobContextImpl(conf, jobId);
    StagingCommitter driver = new StagingCommitter(output, job);
    driver.setupJob(job);
    runTask(conf);
    assertEquals(1, bucket.pendingUploads("warehouse/table/").size(), "task commit: an incomplete upload");
    assertFalse(bucket.exists("warehouse/table/" + FILE));

    driver.commitJob(job);
    assertArrayEquals(StagingProtocolTest.content("rows"), bucket.bytes("warehouse/table/" + FILE));
    assertTrue(bucket.exists("warehouse/table/_SUCCESS"));
    assertEquals(0, bucket.pendingUploads("warehouse/table/").size());
  }

  @Test
  void aFaultInjectedIntoTheStoreReachesTheCommitter() throws Exception {
    InMemoryObjectStore bucket = InMemoryObjectStore.register(BUCKET);
    JobConf conf = conf();
    JobContext job = new JobContextImpl(conf, jobId);
    new StagingCommitter(output, job).setupJob(job);
    bucket.addFault(FaultRule.failing(S3Operation.MULTIPART_INITIATE));
    IOException e = assertThrows(IOException.class, () -> runTask(conf));
    assertTrue(String.valueOf(e.getMessage()).contains("injected failure"), String.valueOf(e));
    assertEquals(0, bucket.pendingUploads("").size());
  }
}
