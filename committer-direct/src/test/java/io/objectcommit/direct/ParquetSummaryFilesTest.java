package io.objectcommit.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Parquet summary files: written from the committed files' footers when the level asks, never otherwise. */
class ParquetSummaryFilesTest {

  private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message m { required int64 id; }");

  private static String writeParquet(Harness.Attempt a, int counter, long rows) throws Exception {
    Path p = new Path(a.committer.getWorkPath(), Harness.fileName(a.task, counter));
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(p, a.ctx.getConfiguration()))
        .withType(SCHEMA).withConf(a.ctx.getConfiguration()).build()) {
      for (long i = 0; i < rows; i++) {
        w.write(groups.newGroup().append("id", i));
      }
    }
    return Harness.key(Harness.fileName(a.task, counter));
  }

  @ParameterizedTest(name = "level {0}")
  @ValueSource(strings = {"ALL", "COMMON_ONLY", ""})
  void summaryFilesFollowTheLevel(String level) throws Exception {
    Harness h = new Harness(true);
    if (!level.isEmpty()) {
      h.jobConf.set("parquet.summary.metadata.level", level);
    }
    PathOutputCommitter driver = h.setUpJob();
    List<String> expected = new ArrayList<>();
    Harness.Attempt t0 = h.attempt(0, 0);
    expected.add(writeParquet(t0, 0, 10));
    t0.commit();
    Harness.Attempt t1 = h.attempt(1, 0);
    expected.add(writeParquet(t1, 0, 5));
    t1.commit();
    driver.commitJob(h.job());
    expected.add(Harness.key("_SUCCESS"));
    if (level.equals("ALL")) {
      expected.add(Harness.key("_metadata"));
    }
    if (!level.isEmpty()) {
      expected.add(Harness.key("_common_metadata"));
    }
    assertEquals(new ArrayList<>(new TreeSet<>(expected)), h.keys());
    if (level.equals("ALL")) {
      byte[] md = h.store.bytes(Harness.key("_metadata"));
      assertTrue(md.length > 8 && new String(md, 0, 4, "US-ASCII").equals("PAR1"), "a Parquet footer file");
    }
  }
}
