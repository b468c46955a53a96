package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.objectcommit.commit.CommitConstants;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The job id the driver's committer and the task attempts' committers agree on, in the order each Spark line sets
 * things up. Job setup opens the destination's store (it checks the store's guarantees on the driver): the
 * in-memory one here.
 */
class StagingJobIdTest {

  @BeforeEach
  void bucket() {
    InMemoryObjectStore.register("bucket");
  }

  @AfterEach
  void noBucket() {
    InMemoryObjectStore.unregister("bucket");
  }

  private static final Path OUTPUT = new Path("s3a://bucket/warehouse/table");
  private static final String UUID = "0b3f6c1e-1111-2222-3333-444455556666";
  private final JobID jobId = new JobID("20261123200129", 0);

  private TaskAttemptContextImpl attempt(JobConf conf, int task) {
    return new TaskAttemptContextImpl(new JobConf(conf), new TaskAttemptID(new TaskID(jobId, TaskType.MAP, task), 0));
  }

  /** Spark 3.5 to 4.1: Spark's write UUID is in the job configuration before job setup. */
  @Test
  void sparksUuidWhenItIsThereAtJobSetup() throws Exception {
    JobConf job = new JobConf(false);
    InMemoryStoreFactory.use(job);
    job.set(CommitConstants.SPARK_WRITE_JOB_UUID, UUID);
    StagingCommitter driver = new StagingCommitter(OUTPUT, attempt(job, 0));
    driver.setupJob(new JobContextImpl(job, null));
    assertEquals(UUID, driver.layout().jobId());
    assertEquals(UUID, new StagingCommitter(OUTPUT, attempt(job, 3)).layout().jobId());
  }

  /**
   * Spark 4.2: job setup on a {@code Job} without an id (the commit protocol set {@code mapreduce.job.id} and made
   * the driver's committer with a task context of that job); Spark's UUID arrives after job setup. The tasks must
   * record their uploads under the id the driver's committer commits.
   */
  @Test
  void theIdJobSetupChoseWhenSparksUuidArrivesAfterIt() throws Exception {
    JobConf job = new JobConf(false);
    InMemoryStoreFactory.use(job);
    job.set(CommitConstants.HADOOP_JOB_ID_KEY, jobId.toString());
    StagingCommitter driver = new StagingCommitter(OUTPUT, attempt(job, 0));
    driver.setupJob(new JobContextImpl(job, null));
    job.set(CommitConstants.SPARK_WRITE_JOB_UUID, UUID);
    assertEquals(jobId.toString(), driver.layout().jobId());
    for (int task = 0; task < 3; task++) {
      assertEquals(driver.layout().jobId(), new StagingCommitter(OUTPUT, attempt(job, task)).layout().jobId(),
          "task " + task);
    }
  }
}
