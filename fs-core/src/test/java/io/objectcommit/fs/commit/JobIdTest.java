package io.objectcommit.fs.commit;

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
  void unsafeOrMissingIdsFailNamingTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(CommitConstants.JOB_UUID, "a/b");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobId.resolve(conf, "j"));
    assertTrue(e.getMessage().contains(CommitConstants.JOB_UUID), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> JobId.resolve(new Configuration(false), null));
    assertTrue(e.getMessage().contains(CommitConstants.JOB_UUID), e.getMessage());
  }
}
