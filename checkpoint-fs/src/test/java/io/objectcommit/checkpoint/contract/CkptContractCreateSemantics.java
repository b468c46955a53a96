package io.objectcommit.checkpoint.contract;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertFalse;

import io.objectcommit.testsupport.HadoopContractSuite;
import io.objectcommit.testsupport.TestTags;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.jupiter.api.Tag;

/** Hadoop's Create contract suite, with the visibility of the checkpoint FileSystem (both backends). */
@Category(HadoopContractSuite.class)
@Tag(TestTags.HADOOP_CONTRACT)
public abstract class CkptContractCreateSemantics extends AbstractContractCreateTest {

  /**
   * Replaces the suite's Syncable probe, which expects a real file system's file to exist while it is written:
   * ours appears only when its stream is closed, whole (that is the point of it). hflush/hsync are declared
   * unsupported; a flush publishes nothing; close publishes everything.
   */
  @Test
  @Override
  public void testSyncable() throws Throwable {
    FileSystem fs = getFileSystem();
    Path path = methodPath();
    byte[] data = {'a', 'b'};
    try (FSDataOutputStream out = fs.create(path, true)) {
      assertFalse(out.hasCapability("hflush"));
      assertFalse(out.hasCapability("hsync"));
      out.write(data);
      out.hflush();
      out.hsync();
      assertFalse("not visible before close", fs.exists(path));
    }
    try (FSDataInputStream in = fs.open(path)) {
      byte[] back = new byte[2];
      in.readFully(0, back);
      assertArrayEquals(data, back);
    }
  }
}
