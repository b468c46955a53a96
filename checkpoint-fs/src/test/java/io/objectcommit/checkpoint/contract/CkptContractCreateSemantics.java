package io.objectcommit.checkpoint.contract;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.objectcommit.testsupport.HadoopContractSuite;
import io.objectcommit.testsupport.TestTags;
import org.apache.hadoop.fs.Abortable;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.jupiter.api.Tag;

/**
 * Hadoop's Create contract suite, with the visibility of the checkpoint FileSystem (both backends), and its
 * abortable streams (Hadoop 3.3.4's suite has no abort case: ours).
 */
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

  /**
   * The file system declares abortable streams (what Spark's AbortableStreamBasedCheckpointFileManager requires),
   * and an aborted stream publishes nothing, neither then nor at the close that follows; an existing file under
   * the name is left as it was.
   */
  @Test
  public void testAbortedStreamPublishesNothing() throws Throwable {
    FileSystem fs = getFileSystem();
    Path path = methodPath();
    assertTrue(fs.hasPathCapability(path, CommonPathCapabilities.ABORTABLE_STREAM));
    try (FSDataOutputStream out = fs.create(path, false)) {
      assertTrue(out.hasCapability(CommonPathCapabilities.ABORTABLE_STREAM));
      out.write(new byte[] {'x'});
      Abortable.AbortableResult result = out.abort();
      assertFalse(result.alreadyClosed());
      assertNull(result.anyCleanupException());
    }
    assertFalse("aborted: not visible", fs.exists(path));
    assertTrue("the parent directory was made by create", fs.getFileStatus(path.getParent()).isDirectory());

    byte[] kept = {'k'};
    try (FSDataOutputStream out = fs.create(path, false)) {
      out.write(kept);
    }
    try (FSDataOutputStream out = fs.create(path, true)) {
      out.write(new byte[] {'y', 'z'});
      out.abort();
    }
    try (FSDataInputStream in = fs.open(path)) {
      byte[] back = new byte[(int) fs.getFileStatus(path).getLen()];
      in.readFully(0, back);
      assertArrayEquals("an aborted overwrite leaves the file as it was", kept, back);
    }
  }
}
