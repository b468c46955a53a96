package io.objectcommit.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class JobIdTest {

  @Test
  void sparkUuidFirstThenOurKeyThenTheHadoopJobId() {
    Configuration conf = new Configuration(false);
    assertEquals("job_1_0001", JobId.resolve(conf, "job_1_0001").id());
    assertEquals(JobId.HADOOP_JOB_ID, JobId.resolve(conf, "job_1_0001").source());
    conf.set(CommitConstants.JOB_UUID, "mine");
    assertEquals("mine", JobId.resolve(conf, "job_1_0001").id());
    assertEquals(CommitConstants.JOB_UUID, JobId.resolve(conf, null).source());
    conf.set(CommitConstants.SPARK_WRITE_JOB_UUID, "0b3f6c1e-1111-2222-3333-444455556666");
    JobId id = JobId.resolve(conf, "job_1_0001");
    assertEquals("0b3f6c1e-1111-2222-3333-444455556666", id.id());
    assertEquals(CommitConstants.SPARK_WRITE_JOB_UUID, id.source());
  }

  @Test
  void theIdPinnedAtJobSetupWinsOverAnIdTheEngineSetsAfterwards() {
    // Spark 4.2: job setup on a Job without an id (only mapreduce.job.id set); Spark's UUID arrives after it
    Configuration job = new Configuration(false);
    job.set(CommitConstants.HADOOP_JOB_ID_KEY, "job_20261123200129_0000");
    JobId atSetup = JobId.setUp(job, null);
    assertEquals("job_20261123200129_0000", atSetup.id());
    assertEquals(JobId.HADOOP_JOB_ID, atSetup.source());
    job.set(CommitConstants.SPARK_WRITE_JOB_UUID, "0b3f6c1e-1111-2222-3333-444455556666");
    Configuration task = new Configuration(job);
    JobId inTask = JobId.resolve(task, "job_20261123200129_0003");
    assertEquals(atSetup.id(), inTask.id(), "a task uses the id job setup chose");
    assertEquals(JobId.HADOOP_JOB_ID, inTask.source(), "and says where job setup found it");
    assertEquals(atSetup.id(), JobId.resolve(job, null).id(), "so does job commit");
  }

  @Test
  void jobSetupResolvesAfreshIgnoringAnEarlierJobsPin() {
    Configuration conf = new Configuration(false);
    conf.set(CommitConstants.SPARK_WRITE_JOB_UUID, "first-job");
    JobId.setUp(conf, null);
    conf.set(CommitConstants.SPARK_WRITE_JOB_UUID, "second-job");
    JobId second = JobId.setUp(conf, null);
    assertEquals("second-job", second.id());
    assertEquals(CommitConstants.SPARK_WRITE_JOB_UUID, second.source());
    assertEquals("second-job", JobId.resolve(new Configuration(conf), "job_1_0001").id());
  }

  @Test
  void unsafeOrMissingIdsFailNamingTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(CommitConstants.JOB_UUID, "a/b");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobId.resolve(conf, "j"));
    assertTrue(e.getMessage().contains(CommitConstants.JOB_UUID), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> JobId.resolve(new Configuration(false), null));
    assertTrue(e.getMessage().contains(CommitConstants.JOB_UUID), e.getMessage());
  }
}
