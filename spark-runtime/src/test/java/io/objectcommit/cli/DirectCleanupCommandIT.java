package io.objectcommit.cli;

import static io.objectcommit.cli.CheckpointCommandIT.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommitConstants;
import io.objectcommit.direct.DirectPathOutputCommitter;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.TestTags;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** objectcommit direct-cleanup against S3, settings given by --conf, -D key=value and -Dkey=value. */
@S3IntegrationTest
@Tag(TestTags.COMMAND)
class DirectCleanupCommandIT {

  /** A direct-committer job whose task committed and whose driver then died (no job commit, no abort). */
  private static String abandonedJob(S3TestBucket bucket, String table) throws Exception {
    String uuid = UUID.randomUUID().toString();
    JobConf conf = new JobConf(bucket.hadoopConfiguration());
    conf.set(CommitConstants.SPARK_WRITE_JOB_UUID, uuid);
    conf.set("mapreduce.map.speculative", "false"); // as Spark sets it when spark.speculation is off
    conf.set("mapreduce.reduce.speculative", "false");
    JobID job = new JobID("202611230400", 1);
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(table);
    TaskAttemptContextImpl driverCtx = new TaskAttemptContextImpl(conf,
        new TaskAttemptID(new TaskID(job, TaskType.MAP, 0), 0));
    new DirectPathOutputCommitter(output, driverCtx).setupJob(new JobContextImpl(conf, job));
    TaskAttemptContextImpl task = new TaskAttemptContextImpl(new JobConf(conf),
        new TaskAttemptID(new TaskID(job, TaskType.MAP, 1), 0));
    PathOutputCommitter c = new DirectPathOutputCommitter(output, task);
    c.setupTask(task);
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(c.getWorkPath(), "part-00001-" + uuid + ".csv");
    try (FSDataOutputStream out = file.getFileSystem(task.getConfiguration()).create(file, false)) {
      out.write("a,b\n".getBytes(StandardCharsets.UTF_8));
    }
    c.commitTask(task);
    return uuid;
  }

  @Test
  void listJobAndAll(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    String table = bucket.s3a("table");
    String first = abandonedJob(bucket, table);
    List<String> settings = CommandRun.settings(bucket, dir);

    CommandRun list = CommandRun.of(args(settings, "direct-cleanup", table, "--list"));
    assertEquals(0, list.code, list.toString());
    assertEquals(first, list.out.trim());
    assertTrue(dataFiles(bucket).size() == 1, bucket.listKeys("table/").toString());

    CommandRun one = CommandRun.of(args(settings, "direct-cleanup", table, "--job", first));
    assertEquals(0, one.code, one.toString());
    assertTrue(one.out.contains("job " + first + ": deleted 1 file(s)"), one.toString());
    assertEquals(List.of(), bucket.listKeys("table/"), "data and bookkeeping gone");

    String second = abandonedJob(bucket, table);
    String third = abandonedJob(bucket, table);
    assertEquals(2, dataFiles(bucket).size(), bucket.listKeys("table/").toString());
    CommandRun all = CommandRun.of(args(settings, "direct-cleanup", table, "--all"));
    assertEquals(0, all.code, all.toString());
    assertTrue(all.out.contains(second) && all.out.contains(third) && all.out.contains("2 job(s) cleaned"),
        all.toString());
    assertEquals(List.of(), bucket.listKeys("table/"));
  }

  @Test
  void unknownJobIdIsAFailureNotASuccess(S3TestBucket bucket, @TempDir Path dir) throws Exception {
    String table = bucket.s3a("table");
    String job = abandonedJob(bucket, table);
    List<String> settings = CommandRun.settings(bucket, dir);

    CommandRun typo = CommandRun.of(args(settings, "direct-cleanup", table, "--job", "no-such-job", job));
    assertEquals(1, typo.code, typo.toString());
    assertTrue(typo.out.contains("job no-such-job: no bookkeeping under ") && typo.out.contains("--list"),
        typo.toString());
    assertTrue(typo.out.contains("job " + job + ": deleted 1 file(s)"), "the known job is still cleaned: " + typo);
    assertEquals(List.of(), bucket.listKeys("table/"));
  }

  private static List<String> dataFiles(S3TestBucket bucket) {
    return bucket.listKeys("table/").stream().filter(k -> !k.contains("_objectcommit_direct"))
        .collect(Collectors.toList());
  }
}
