package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.testing.FaultRule;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.store.testing.RequestHook;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * gc's count of what a versioned bucket keeps, on the in-memory store (an unversioned bucket): none, one
 * ListObjectVersions request, and a refused listing that does not stop the collection.
 */
class CheckpointMaintenanceTest {

  private static Configuration conf() {
    Configuration conf = InMemoryStoreFactory.use(new Configuration(false));
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    return conf;
  }

  private static String gc(String root, Configuration conf) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path(root), conf)) {
      m.gc(Duration.ZERO, false, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void gcCountsVersionsWithOneListingAndGoesOnWhenTheListingIsRefused() throws Exception {
    String name = "ckpt-unit-gc-versions";
    InMemoryObjectStore bucket = InMemoryObjectStore.register(name);
    String root = "ckpt://" + name + "/";
    Configuration conf = conf();
    try (FileSystem fs = FileSystem.newInstance(URI.create(root), conf);
        FSDataOutputStream out = fs.create(new Path(root + "q/offsets/0"), false)) {
      out.write('0');
    }
    long before = bucket.counts().of(S3Operation.LIST_VERSIONS);
    String unversioned = gc(root, conf);
    assertTrue(unversioned.contains("deleted 0 objects\n0 noncurrent versions (0 bytes) and 0 delete markers under s3://"
        + name + "/\n"), unversioned);
    assertFalse(unversioned.contains("lifecycle rule"), unversioned);
    assertEquals(1, bucket.counts().of(S3Operation.LIST_VERSIONS) - before, "one request per 1,000 versions");

    // written a minute ago: gc with a minimum age of zero collects what is older than the moment it starts,
    // which an object written in the same millisecond is not
    bucket.setClock(() -> System.currentTimeMillis() - 60_000);
    bucket.put("q/offsets/1~00112233445566ff", Payload.of(new byte[1]),
        WriteCondition.none());
    bucket.addFault(FaultRule.failing(S3Operation.LIST_VERSIONS)
        .throwing(path -> new AccessDeniedException(path)).countedAs(403));
    String refused = gc(root, conf);
    assertTrue(refused.contains("deleted 1 objects\ncannot count noncurrent versions and delete markers"
        + " (ListObjectVersions needs s3:ListBucketVersions): "), refused);
    assertFalse(bucket.exists("q/offsets/1~00112233445566ff"), "collected all the same");
  }

  /** A root with one file, and two unreferenced data objects, old enough for gc. */
  private static InMemoryObjectStore rootWithGarbage(String name, Configuration conf) throws IOException {
    InMemoryObjectStore bucket = InMemoryObjectStore.register(name);
    try (FileSystem fs = FileSystem.newInstance(URI.create("ckpt://" + name + "/"), conf);
        FSDataOutputStream out = fs.create(new Path("ckpt://" + name + "/q/offsets/0"), false)) {
      out.write('0');
    }
    bucket.setClock(() -> System.currentTimeMillis() - 60_000);
    bucket.put(GARBAGE_1, Payload.of(new byte[1]), WriteCondition.none());
    bucket.put(GARBAGE_2, Payload.of(new byte[2]), WriteCondition.none());
    long later = System.currentTimeMillis() + 60_000;
    bucket.setClock(() -> later);
    return bucket;
  }

  private static final String GARBAGE_1 = "q/offsets/1~00112233445566ff";
  private static final String GARBAGE_2 = "q/offsets/2~00112233445566ff";

  @Test
  void gcKeepsAnObjectWrittenAgainBetweenItsDecisionAndTheDelete() throws Exception {
    String name = "ckpt-unit-gc-newer";
    Configuration conf = conf();
    InMemoryObjectStore bucket = rootWithGarbage(name, conf);
    byte[] newer = "written again".getBytes(StandardCharsets.UTF_8);
    // another writer puts a new object at the key after gc listed it and decided to delete it
    bucket.addHook(RequestHook.before(S3Operation.DELETE, GARBAGE_1,
        () -> bucket.put(GARBAGE_1, Payload.of(newer), WriteCondition.none())));
    bucket.resetCounts();
    String out = gc("ckpt://" + name + "/", conf);
    assertTrue(out.contains("kept s3://" + name + "/" + GARBAGE_1 + ": written again since it was listed\n"
        + "deleted 1 objects\nkept 1 objects written again since gc listed them"), out);
    assertArrayEquals(newer, bucket.bytes(GARBAGE_1), "the newer object stays");
    assertFalse(bucket.exists(GARBAGE_2), "the other one, still the one listed, is deleted");
    InMemoryRequestCounts c = bucket.counts();
    assertEquals(2, c.of(S3Operation.DELETE), c.toString());
    assertEquals(1, c.of(S3Operation.DELETE, 412), "the refused delete: " + c);
    assertEquals(2, c.conditional(S3Operation.DELETE), "both with If-Match: " + c);
    assertEquals(1, c.of(S3Operation.PUT), "only the other writer's PUT (the in-memory store needs no check): " + c);
    assertEquals(0, c.of(S3Operation.BULK_DELETE), c.toString());
  }

  @Test
  void gcOnAStoreWithoutConditionalDeletesDeletesAsBeforeInOneBulkDelete() throws Exception {
    String name = "ckpt-unit-gc-unconditional";
    Configuration conf = conf();
    InMemoryObjectStore bucket = rootWithGarbage(name, conf);
    bucket.setConditionalDeletes(false);
    bucket.addHook(RequestHook.before(S3Operation.BULK_DELETE, GARBAGE_1,
        () -> bucket.put(GARBAGE_1, Payload.of(new byte[3]), WriteCondition.none())));
    bucket.resetCounts();
    String out = gc("ckpt://" + name + "/", conf);
    assertTrue(out.contains("deleted 2 objects\n0 noncurrent"), out);
    assertFalse(bucket.exists(GARBAGE_1), "documented: without conditional deletes a newer object there is deleted");
    InMemoryRequestCounts c = bucket.counts();
    assertEquals(1, c.of(S3Operation.BULK_DELETE), c.toString());
    assertEquals(0, c.of(S3Operation.DELETE), c.toString());
  }
}
