package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.store.files.CorruptRecordException;
import io.objectcommit.store.testing.InMemoryObjectStore;
import io.objectcommit.store.testing.InMemoryRequestCounts;
import io.objectcommit.store.testing.InMemoryStoreFactory;
import io.objectcommit.testsupport.proxy.S3Operation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Small files kept inside their directory's manifest (format version 2, the default): one conditional PUT to write
 * one, no GET beyond the manifest's to read it, nothing to delete; larger files, and files beyond the directory's
 * bound, in data objects as before; manifests of version 1 still read.
 */
class InlineFilesTest {

  private static final AtomicInteger BUCKETS = new AtomicInteger();

  private final String bucketName = "ckpt-unit-inline-" + BUCKETS.incrementAndGet();
  private final InMemoryObjectStore bucket = InMemoryObjectStore.register(bucketName);
  private FileSystem fs;

  private Configuration conf() {
    Configuration conf = InMemoryStoreFactory.use(new Configuration(false));
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    return conf;
  }

  private FileSystem open(Configuration conf) throws IOException {
    return FileSystem.newInstance(URI.create("ckpt://" + bucketName + "/"), conf);
  }

  @BeforeEach
  void start() throws IOException {
    fs = open(conf());
    fs.mkdirs(new Path("/q/state/0/0"));
  }

  @AfterEach
  void stop() throws IOException {
    fs.close();
    InMemoryObjectStore.unregister(bucketName);
  }

  private static void write(FileSystem fs, String path, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path), false)) {
      out.write(bytes);
    }
  }

  private static byte[] read(FileSystem fs, String path) throws IOException {
    try (FSDataInputStream in = fs.open(new Path(path))) {
      return in.readAllBytes();
    }
  }

  private static byte[] filled(int size, int seed) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  private List<String> dataObjects() {
    return bucket.keys("").stream().filter(k -> !k.startsWith(".ckpt/")).toList();
  }

  @Test
  void aSmallFileCostsOneConditionalPutAndIsReadWithoutAGetOfItsOwn() throws IOException {
    byte[] small = filled((int) CheckpointConstants.INLINE_MAX_FILE_SIZE_DEFAULT, 1);
    InMemoryRequestCounts c0 = bucket.counts();
    write(fs, "/q/state/0/0/1.delta", small);
    InMemoryRequestCounts written = bucket.counts().minus(c0);
    assertEquals(1, written.total(), "the manifest's conditional PUT, nothing else: " + written);
    assertEquals(1, written.conditional(S3Operation.PUT), written.toString());
    assertEquals(List.of(), dataObjects(), "no data object");

    InMemoryRequestCounts c1 = bucket.counts();
    assertArrayEquals(small, read(fs, "/q/state/0/0/1.delta"));
    InMemoryRequestCounts read = bucket.counts().minus(c1);
    assertEquals(read.of(S3Operation.GET), read.total(), "manifest reads only: " + read);
    assertEquals(0, read.of(S3Operation.GET, 200) + read.of(S3Operation.GET, 206), "revalidations (304): " + read);

    // one byte more: a data object of its own, as in version 1
    byte[] large = filled(small.length + 1, 2);
    InMemoryRequestCounts c2 = bucket.counts();
    write(fs, "/q/state/0/0/2.delta", large);
    InMemoryRequestCounts dataWrite = bucket.counts().minus(c2);
    assertEquals(2, dataWrite.of(S3Operation.PUT), "data PUT and manifest PUT: " + dataWrite);
    assertEquals(1, dataObjects().size(), dataObjects().toString());
    InMemoryRequestCounts c3 = bucket.counts();
    assertArrayEquals(large, read(fs, "/q/state/0/0/2.delta"));
    assertEquals(1, bucket.counts().minus(c3).of(S3Operation.GET, 200), "the data object's GET");
    assertEquals(small.length, fs.getFileStatus(new Path("/q/state/0/0/1.delta")).getLen());
  }

  @Test
  void aDirectoryHoldsNoMoreInlineBytesThanItsBoundThenFilesGetDataObjects() throws IOException {
    Configuration conf = conf();
    conf.setLong(CheckpointConstants.INLINE_MAX_PER_DIRECTORY, 10_000);
    try (FileSystem bounded = open(conf)) {
      for (int i = 0; i < 3; i++) {
        write(bounded, "/q/state/0/0/" + i + ".delta", filled(4_000, i));
      }
      assertEquals(1, dataObjects().size(), "the third file does not fit in 10,000 bytes: " + dataObjects());
      assertTrue(dataObjects().get(0).contains("2.delta"), dataObjects().toString());
      assertTrue(bounded.delete(new Path("/q/state/0/0/0.delta"), false));
      write(bounded, "/q/state/0/0/3.delta", filled(4_000, 3));
      assertEquals(1, dataObjects().size(), "room again after a delete: " + dataObjects());
      for (int i = 1; i < 4; i++) {
        assertArrayEquals(filled(4_000, i), read(bounded, "/q/state/0/0/" + i + ".delta"), i + ".delta");
      }
    }
  }

  @Test
  void overwritesAndDeletesCleanUpOnlyDataObjects() throws IOException {
    Path file = new Path("/q/offsets/0");
    write(fs, file.toString(), filled(20_000, 1));
    assertEquals(1, dataObjects().size());
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(filled(100, 2));
    }
    assertEquals(List.of(), dataObjects(), "the replaced data object is deleted");
    assertArrayEquals(filled(100, 2), read(fs, file.toString()));

    InMemoryRequestCounts c0 = bucket.counts();
    assertTrue(fs.delete(file, false));
    InMemoryRequestCounts deleted = bucket.counts().minus(c0);
    assertEquals(0, deleted.of(S3Operation.DELETE) + deleted.of(S3Operation.BULK_DELETE),
        "an inline file has nothing to delete: " + deleted);
    assertFalse(fs.exists(file));
  }

  @Test
  void renameMovesTheBytesWithTheEntry() throws IOException {
    write(fs, "/q/state/0/0/.1.delta.tmp", filled(300, 7));
    fs.mkdirs(new Path("/q/state/0/1"));
    assertTrue(fs.rename(new Path("/q/state/0/0/.1.delta.tmp"), new Path("/q/state/0/1/1.delta")));
    assertArrayEquals(filled(300, 7), read(fs, "/q/state/0/1/1.delta"));
    assertTrue(fs.rename(new Path("/q/state/0/1"), new Path("/q/state/0/2")));
    assertArrayEquals(filled(300, 7), read(fs, "/q/state/0/2/1.delta"));
    assertEquals(List.of(), dataObjects());
  }

  @Test
  void seeksAndPositionedReadsOfAnInlineFile() throws IOException {
    byte[] bytes = filled(1_000, 3);
    write(fs, "/q/commits/0", bytes);
    try (FSDataInputStream in = fs.open(new Path("/q/commits/0"))) {
      in.seek(600);
      assertEquals(bytes[600] & 0xff, in.read());
      assertEquals(601, in.getPos());
      byte[] part = new byte[100];
      in.readFully(900, part);
      assertArrayEquals(Arrays.copyOfRange(bytes, 900, 1000), part);
      assertEquals(601, in.getPos(), "a positioned read does not move the stream");
      assertThrows(java.io.EOFException.class, () -> in.readFully(950, new byte[100]));
      assertThrows(java.io.EOFException.class, () -> in.seek(1_001));
      in.seek(1_000);
      assertEquals(-1, in.read());
    }
  }

  @Test
  void withInlineFilesOffEveryFileHasADataObjectAndVersion1ManifestsAreStillRead() throws IOException {
    Configuration off = conf();
    off.setLong(CheckpointConstants.INLINE_MAX_FILE_SIZE, 0);
    try (FileSystem v1 = open(off)) {
      write(v1, "/q/offsets/0", filled(10, 1));
    }
    assertEquals(1, dataObjects().size(), "a data object even for 10 bytes");
    // a manifest as version 1 wrote it (no inline field, version 1), read by the default
    String dirs = ".ckpt/dirs/";
    String root = new String(bucket.bytes(dirs + "root.json"), StandardCharsets.UTF_8);
    assertTrue(root.contains("\"version\":2"), root);
    String offsetsManifest = bucket.keys(dirs).stream().filter(k -> {
      String m = new String(bucket.bytes(k), StandardCharsets.UTF_8);
      return m.contains("\"createdAs\":\"/q/offsets\"");
    }).findFirst().orElseThrow();
    String asV1 = new String(bucket.bytes(offsetsManifest), StandardCharsets.UTF_8).replace("\"version\":2",
        "\"version\":1");
    bucket.put(offsetsManifest, Payload.of(asV1.getBytes(StandardCharsets.UTF_8)), WriteCondition.none());
    try (FileSystem fresh = open(conf())) {
      assertArrayEquals(filled(10, 1), read(fresh, "/q/offsets/0"));
      write(fresh, "/q/offsets/1", filled(10, 2));
      assertArrayEquals(filled(10, 2), read(fresh, "/q/offsets/1"));
    }
    assertEquals(1, dataObjects().size(), "the second file inline");
  }

  @Test
  void anInlineFileWhoseBytesDoNotMatchItsSizeIsACorruptManifest() throws IOException {
    write(fs, "/q/commits/0", filled(30, 1));
    String dirs = ".ckpt/dirs/";
    String key = bucket.keys(dirs).stream().filter(k -> new String(bucket.bytes(k), StandardCharsets.UTF_8)
        .contains("\"createdAs\":\"/q/commits\"")).findFirst().orElseThrow();
    String bad = new String(bucket.bytes(key), StandardCharsets.UTF_8).replace("\"size\":30", "\"size\":31");
    bucket.put(key, Payload.of(bad.getBytes(StandardCharsets.UTF_8)), WriteCondition.none());
    try (FileSystem fresh = open(conf())) {
      CorruptRecordException e = assertThrows(CorruptRecordException.class,
          () -> fresh.getFileStatus(new Path("/q/commits/0")));
      assertTrue(e.getMessage().contains("inline file entry '0' holds 30 bytes, its size says 31"), e.getMessage());
    }
  }

  @Test
  void verifyAndGcLeaveInlineFilesAlone() throws Exception {
    write(fs, "/q/commits/0", filled(30, 1));
    write(fs, "/q/commits/1", filled(20_000, 2));
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path("ckpt://" + bucketName + "/q"), conf())) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertEquals(List.of(), m.verify(new PrintStream(out, true, StandardCharsets.UTF_8)),
          out.toString(StandardCharsets.UTF_8));
    }
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new Path("ckpt://" + bucketName + "/"), conf())) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertEquals(List.of(), m.gc(Duration.ZERO, false, new PrintStream(out, true, StandardCharsets.UTF_8)),
          "nothing unreferenced");
    }
    assertArrayEquals(filled(30, 1), read(fs, "/q/commits/0"));
  }
}
