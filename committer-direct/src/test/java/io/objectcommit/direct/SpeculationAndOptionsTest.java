package io.objectcommit.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.commit.CommitConstants;
import io.objectcommit.commit.JobId;
import io.objectcommit.commit.UnsupportedDestinationException;
import io.objectcommit.direct.files.FileGroup;
import io.objectcommit.direct.impl.DirectCommitEngine;
import io.objectcommit.direct.impl.SpeculationGuard;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;

class SpeculationAndOptionsTest {

  @Test
  void speculationFailsJobSetupNamingTheSettingAndTheAlternatives() throws Exception {
    Harness h = new Harness(true);
    h.jobConf.set("mapreduce.map.speculative", "true");
    PathOutputCommitter driver = h.driver();
    SpeculationNotSupportedException e = assertThrows(SpeculationNotSupportedException.class,
        () -> driver.setupJob(h.job()));
    for (String s : List.of("mapreduce.map.speculative=true", "spark.speculation=false",
        DirectCommitterConstants.ON_SPECULATION + "=classic", "staging committer")) {
      assertTrue(e.getMessage().contains(s), s + " in: " + e.getMessage());
    }
    assertEquals(List.of(), h.keys());
  }

  @Test
  void theClassicFallbackIsChosenForTheWholeJobAndRecordedForItsTasks() throws Exception {
    // (the classic committer itself needs a real file system: SparkDirectCommitterIT runs it end to end)
    for (boolean parquet : new boolean[] {true, false}) {
      Harness h = new Harness(parquet);
      h.jobConf.set("mapreduce.reduce.speculative", "true");
      h.jobConf.set(DirectCommitterConstants.ON_SPECULATION, "CLASSIC");
      PathOutputCommitter driver = h.driver();
      assertThrows(Exception.class, () -> driver.setupJob(h.job()), "classic setup reaches for s3a://");
      assertEquals("CLASSIC", h.jobConf.get(DirectCommitterConstants.INTERNAL_MODE));
      h.jobConf.set("mapreduce.reduce.speculative", "false");
      assertEquals(DirectCommitEngine.Mode.CLASSIC,
          new DirectCommitEngine(h.output, h.jobConf, "t").mode(new JobConf(h.jobConf)),
          "a task follows the job's recorded choice, whatever its own settings");
    }
  }

  @Test
  void inSparkOnlySparksSettingAndExplicitHadoopSettingsCount() throws Exception {
    Configuration conf = new JobConf(); // mapred-default.xml says mapreduce.map.speculative=true
    assertTrue(conf.getBoolean("mapreduce.map.speculative", false));
    assertEquals(List.of(), new SpeculationGuard(() -> Optional.of(false)).enabledBy(conf),
        "Hadoop's default means nothing to Spark");
    assertEquals(List.of("spark.speculation=true"), new SpeculationGuard(() -> Optional.of(true)).enabledBy(conf));
    assertEquals(List.of("mapreduce.map.speculative=true", "mapreduce.reduce.speculative=true"),
        new SpeculationGuard(Optional::empty).enabledBy(conf), "MapReduce speculates by default");
    conf.set("mapreduce.map.speculative", "true");
    assertEquals(List.of("mapreduce.map.speculative=true"),
        new SpeculationGuard(() -> Optional.of(false)).enabledBy(conf), "set by the job");
  }

  @Test
  void badOptionsFailNamingTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(DirectCommitterConstants.ON_SPECULATION, "ignore");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DirectCommitterOptions.from(conf, "bucket"));
    assertTrue(e.getMessage().contains(DirectCommitterConstants.ON_SPECULATION), e.getMessage());
    Configuration c2 = new Configuration(false);
    c2.set(DirectCommitterConstants.SUCCESS_MAX_FILENAMES, "-1");
    e = assertThrows(IllegalArgumentException.class, () -> DirectCommitterOptions.from(c2, "bucket"));
    assertTrue(e.getMessage().contains(DirectCommitterConstants.SUCCESS_MAX_FILENAMES), e.getMessage());
    Configuration c3 = new Configuration(false);
    c3.set(CommitConstants.JOB_UUID, "a/b");
    e = assertThrows(IllegalArgumentException.class,
        () -> JobId.resolve(c3, null));
    assertTrue(e.getMessage().contains(CommitConstants.JOB_UUID), e.getMessage());
    assertEquals(DirectCommitterOptions.OnSpeculation.FAIL,
        DirectCommitterOptions.from(new Configuration(false), "bucket").onSpeculation());
  }

  @Test
  void aNonS3DestinationIsRefused() {
    Harness h = new Harness(false);
    UnsupportedDestinationException e = assertThrows(
        UnsupportedDestinationException.class,
        () -> new DirectPathOutputCommitter(new Path("file:/tmp/x"),
            new TaskAttemptContextImpl(h.jobConf, h.attemptId(0, 0))));
    assertEquals(new Path("file:/tmp/x"), e.path());
  }

  @Test
  void fileGroupsCoverSparksCountedNames() {
    FileGroup g = FileGroup.of("t/d=1/part-00003-abc-c000.snappy.parquet");
    assertFalse(g.isExact());
    assertEquals("t/d=1/part-00003-abc-c012.snappy.parquet", g.keyOf(12));
    assertEquals(g, FileGroup.of("t/d=1/part-00003-abc-c007.snappy.parquet"));
    assertEquals(7, g.counterOf("t/d=1/part-00003-abc-c007.snappy.parquet"));
    assertEquals(-1, g.counterOf("t/d=2/part-00003-abc-c007.snappy.parquet"));
    assertEquals("t/part-00000-abc-c1000.csv", FileGroup.of("t/part-00000-abc-c000.csv").keyOf(1000));
    assertEquals("t/part-00000-abc-c002", FileGroup.of("t/part-00000-abc-c000").keyOf(2));
    FileGroup exact = FileGroup.of("t/part-m-00000");
    assertTrue(exact.isExact());
    assertEquals("t/part-m-00000", exact.keyOf(5));
  }
}
