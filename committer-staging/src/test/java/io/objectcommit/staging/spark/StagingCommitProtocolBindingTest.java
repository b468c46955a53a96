package io.objectcommit.staging.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit protocol as Spark binds it ({@code spark.sql.sources.commitProtocolClass}): created by Spark's own
 * {@code FileCommitProtocol.instantiate} (the constructor Spark looks up by reflection), sent to executors by Java
 * serialization, and asked to delete the destination before an overwrite. The same source runs on every Spark line
 * (the Spark 4 line modules compile it against their Spark): the class extends Spark's Scala
 * {@code HadoopMapReduceCommitProtocol}, whose bytecode is the part most likely to differ between lines.
 */
class StagingCommitProtocolBindingTest {

  @TempDir
  File tmp;

  @Test
  void sparkCreatesItSerializesItAndTheOverwriteDeleteIsDeferred() throws Exception {
    File dest = new File(tmp, "table");
    File old = new File(dest, "p=1/part-0.parquet");
    Files.createDirectories(old.getParentFile().toPath());
    Files.write(old.toPath(), new byte[] {1});

    FileCommitProtocol protocol = FileCommitProtocol.instantiate(StagingCommitProtocol.class.getName(), "job-1",
        dest.toURI().toString(), true);
    assertInstanceOf(StagingCommitProtocol.class, protocol);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(protocol);
    }
    Object copy;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = in.readObject();
    }
    assertEquals(StagingCommitProtocol.class, copy.getClass());

    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path partition = new Path(dest.toURI().toString(), "p=1");
    assertTrue(protocol.deleteWithJob(fs, partition, true), "Spark's overwrite delete is taken over");
    assertTrue(old.exists(), "nothing is deleted before job commit");
  }
}
