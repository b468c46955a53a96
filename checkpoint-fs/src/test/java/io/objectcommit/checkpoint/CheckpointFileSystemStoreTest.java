package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint file system, initialised as Hadoop does, gets its store from {@code ObjectStores.open}: here the
 * in-memory store the configuration names ({@link InMemoryStoreFactory}), with a fault injected into it.
 */
class CheckpointFileSystemStoreTest {

  private static CheckpointFileSystem open(String bucket) throws IOException {
    CheckpointFileSystem fs = new CheckpointFileSystem();
    fs.initialize(URI.create("ckpt://" + bucket + "/"), InMemoryStoreFactory.use(new Configuration(false)));
    return fs;
  }

  private static void write(CheckpointFileSystem fs, Path p, String content) throws IOException {
    try (FSDataOutputStream out = fs.create(p, false)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Each test's bucket has a name of its own: the file system remembers for the JVM's life which root manifests
   * exist (ManifestStore), and a bucket registered again under one name would start without its root.
   */
  @Test
  void filesAreWrittenToTheStoreTheConfigurationNames() throws Exception {
    String name = "ckpt-unit-files";
    InMemoryObjectStore bucket = InMemoryObjectStore.register(name);
    Path dir = new Path("ckpt://" + name + "/query/offsets");
    try (CheckpointFileSystem fs = open(name)) {
      fs.mkdirs(dir);
      write(fs, new Path(dir, "0"), "{\"batch\":0}");
    }
    assertFalse(bucket.keys("").isEmpty(), "data and manifests are in the test's bucket");
    try (CheckpointFileSystem again = open(name); FSDataInputStream in = again.open(new Path(dir, "0"))) {
      assertArrayEquals("{\"batch\":0}".getBytes(StandardCharsets.UTF_8), in.readAllBytes());
    }
  }

  @Test
  void aFaultInjectedIntoTheStoreReachesTheFileSystem() throws Exception {
    String name = "ckpt-unit-faults";
    InMemoryObjectStore bucket = InMemoryObjectStore.register(name);
    Path dir = new Path("ckpt://" + name + "/query/commits");
    try (CheckpointFileSystem fs = open(name)) {
      fs.mkdirs(dir);
      bucket.addFault(FaultRule.failing(S3Operation.PUT));
      IOException e = assertThrows(IOException.class, () -> write(fs, new Path(dir, "0"), "{}"));
      assertTrue(String.valueOf(e.getMessage()).contains("injected failure"), String.valueOf(e));
      bucket.clearFaults();
      assertFalse(fs.exists(new Path(dir, "0")), "a failed create leaves no file");
      write(fs, new Path(dir, "0"), "{}");
      assertTrue(fs.exists(new Path(dir, "0")));
      assertEquals(1, fs.listStatus(dir).length);
    }
  }
}
