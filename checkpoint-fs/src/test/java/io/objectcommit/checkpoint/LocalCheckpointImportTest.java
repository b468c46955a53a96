package io.objectcommit.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointImport.Result.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code checkpoint import file:///dir ckpt://efs/path} on the local-path backend: a checkpoint laid out as Spark
 * lays it out on {@code file://} (with Hadoop's {@code .crc} side files) is hard-linked, not copied (the same inodes,
 * the source unchanged), read back through ckpt://; idempotent, resumed after an interruption; in place when the
 * target is the source's directory; refused when it looks live, lacks a file its query needs, the target exists, or
 * source and target contain one another; gc removes an interrupted import's staging directory.
 */
class LocalCheckpointImportTest {

  @TempDir
  Path tmp;

  private Path root;
  private Path src;
  private final String target = "ckpt://efs/checkpoints/q1";

  private static final CheckpointImport.Options NOW = new CheckpointImport.Options(false, false, Duration.ZERO);

  @BeforeEach
  void setUp() throws IOException {
    root = Files.createDirectories(tmp.resolve("root"));
    src = Files.createDirectories(tmp.resolve("old/q1"));
  }

  private Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    conf.set("fs.objectcommit.bucket.efs.checkpoint.backend", "local");
    conf.set("fs.objectcommit.bucket.efs.checkpoint.local.root", root.toString());
    return conf;
  }

  /** A stopped query's checkpoint after batches 0 to 2 on file://: a file source, two state partitions. */
  private Map<String, String> stockCheckpoint() throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("metadata", "{\"id\":\"5f1c\"}");
    for (int b = 0; b <= 2; b++) {
      files.put("offsets/" + b, "v1\n{}\n{\"logOffset\":" + b + "}");
      files.put("sources/0/" + b, "v1\n{\"path\":\"f" + b + "\"}");
      files.put("commits/" + b, "v1\n{\"nextBatchWatermarkMs\":0}");
      for (int p = 0; p < 2; p++) {
        files.put("state/0/" + p + "/" + (b + 1) + ".delta", "delta " + p + "." + (b + 1));
      }
    }
    files.put("state/0/_metadata/metadata", "{\"operatorId\":0}");
    for (Map.Entry<String, String> f : files.entrySet()) {
      put(f.getKey(), f.getValue());
      Path p = src.resolve(f.getKey());
      Files.writeString(p.resolveSibling("." + p.getFileName() + ".crc"), "crc"); // ChecksumFileSystem's
    }
    return files;
  }

  private void put(String rel, String content) throws IOException {
    Path p = src.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content);
  }

  private String importInto(String source, String to, CheckpointImport.Options options,
      CheckpointImport.Result[] result) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new org.apache.hadoop.fs.Path(to), conf())) {
      CheckpointImport.Result r = m.importFrom(URI.create(source), options,
          new PrintStream(bytes, true, StandardCharsets.UTF_8));
      if (result != null) {
        result[0] = r;
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private String importInto(String to, CheckpointImport.Options options, CheckpointImport.Result[] result)
      throws IOException {
    return importInto(src.toUri().toString(), to, options, result);
  }

  /** Every file under {@code dir}: relative path and inode (fileKey), size and time. */
  private static Map<String, String> snapshot(Path dir) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
        m.put(dir.relativize(p).toString(), Files.readAttributes(p, "unix:ino,size,lastModifiedTime").toString());
      }
    }
    return m;
  }

  @Test
  void hardLinksWithoutCopyingAndReadsBackThroughCkpt() throws Exception {
    Map<String, String> files = stockCheckpoint();
    Map<String, String> before = snapshot(src);
    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    String out = importInto(target, NOW, r);

    assertEquals(Outcome.IMPORTED, r[0].outcome(), out);
    assertEquals(files.size(), r[0].files(), "the .crc side files are not imported: " + out);
    assertEquals(files.size(), r[0].manifestsWritten(), "one hard link per file");
    // q1, offsets, commits, sources, sources/0, state, state/0, state/0/0, state/0/1, state/0/_metadata
    assertEquals(10, r[0].directories());
    assertEquals(before, snapshot(src), "the source unchanged");
    Path dst = root.resolve("checkpoints/q1");
    for (String rel : files.keySet()) {
      assertTrue(Files.isSameFile(src.resolve(rel), dst.resolve(rel)), rel + " is the same inode, not a copy");
      assertEquals(2, (int) Files.getAttribute(dst.resolve(rel), "unix:nlink"), rel);
    }
    assertEquals(files.keySet(), snapshot(dst).keySet(), "no .crc side file, no staging left");
    try (FileSystem fs = FileSystem.newInstance(URI.create(target), conf())) {
      for (Map.Entry<String, String> f : files.entrySet()) {
        try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(target + "/" + f.getKey()))) {
          assertEquals(f.getValue(), new String(in.readAllBytes(), StandardCharsets.UTF_8), f.getKey());
        }
      }
      assertEquals(1, fs.listStatus(new org.apache.hadoop.fs.Path("ckpt://efs/checkpoints")).length,
          "only q1 under its parent");
    }
    assertTrue(out.contains("plan: " + src.toRealPath() + " -> ckpt://efs/checkpoints/q1: " + files.size()
        + " files"), out);

    String again = importInto(target, NOW, r);
    assertEquals(Outcome.ALREADY_IMPORTED, r[0].outcome(), again);
    assertEquals(0, r[0].manifestsWritten());
    assertEquals(before, snapshot(src));
  }

  @Test
  void anInterruptedImportResumesLinkingOnlyWhatIsMissing() throws Exception {
    Map<String, String> files = stockCheckpoint();
    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    importInto(target, new CheckpointImport.Options(true, false, Duration.ZERO), r);
    assertEquals(Outcome.PLANNED, r[0].outcome());
    assertFalse(Files.exists(root.resolve("checkpoints")), "a dry run writes nothing");
    // What a first run killed after 5 links leaves: the staging directory beside the target, hidden
    Path dst = root.resolve("checkpoints/q1");
    String staging = "." + dst.getFileName() + "." + io.objectcommit.checkpoint.impl.LocalCheckpointAdoption
        .importId(src.toRealPath(), "/checkpoints/q1") + ".ckpt-tmp";
    Path st = Files.createDirectories(dst.resolveSibling(staging));
    List<String> rels = List.copyOf(files.keySet());
    for (String rel : rels.subList(0, 5)) {
      Files.createDirectories(st.resolve(rel).getParent());
      Files.createLink(st.resolve(rel), src.resolve(rel));
    }
    Files.writeString(st.resolve("gone"), "a file the source no longer has");
    try (FileSystem fs = FileSystem.newInstance(URI.create(target), conf())) {
      assertEquals(0, fs.listStatus(new org.apache.hadoop.fs.Path("ckpt://efs/checkpoints")).length,
          "the staging directory is hidden");
    }

    String out = importInto(target, NOW, r);
    assertEquals(Outcome.IMPORTED, r[0].outcome(), out);
    assertEquals(files.size() - 5, r[0].manifestsWritten(), "only the missing links: " + out);
    assertEquals(files.keySet(), snapshot(dst).keySet());
    assertFalse(Files.exists(st));
  }

  @Test
  void gcRemovesAnAbandonedStagingDirectory() throws Exception {
    Path st = Files.createDirectories(root.resolve("checkpoints/.q1.import-x.ckpt-tmp/offsets"));
    Files.writeString(st.resolve("0"), "v1");
    // abandoned a minute ago: gc with a minimum age of zero takes what is older than the moment it starts
    Files.setLastModifiedTime(st.getParent(), FileTime.fromMillis(System.currentTimeMillis() - 60_000));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CheckpointMaintenance m = CheckpointMaintenance.open(new org.apache.hadoop.fs.Path("ckpt://efs/"), conf())) {
      assertEquals(1, m.gc(Duration.ZERO, false, new PrintStream(bytes, true, StandardCharsets.UTF_8)).size());
    }
    assertFalse(Files.exists(st.getParent()), bytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theSourcesOwnDirectoryIsAdoptedInPlace() throws Exception {
    root = Files.createDirectories(tmp.resolve("efs"));
    src = Files.createDirectories(root.resolve("checkpoints/q1"));
    Map<String, String> files = stockCheckpoint();
    Map<String, String> before = snapshot(src);
    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    String out = importInto(target, NOW, r);
    assertEquals(Outcome.IN_PLACE, r[0].outcome(), out);
    assertEquals(files.size(), r[0].files());
    assertEquals(before, snapshot(src));
  }

  @Test
  void refusesALiveLookingSourceUnlessForced() throws Exception {
    stockCheckpoint();
    put("offsets/3", "v1\n{}\n{\"logOffset\":3}");
    CheckpointImportException live = assertThrows(CheckpointImportException.class,
        () -> importInto(target, CheckpointImport.Options.defaults(), null));
    assertTrue(live.forceable(), live.getMessage());
    assertEquals(2, live.reasons().size(), live.getMessage());
    assertTrue(live.reasons().get(0).endsWith("/: offsets/3 has no commits/3: the query is running batch 3, or was"
        + " stopped or failed in its middle (Spark then runs it again)"), live.getMessage());
    assertTrue(live.reasons().get(1).contains(" s ago, less than the idle time (300 s)"), live.getMessage());
    assertFalse(Files.exists(root.resolve("checkpoints")), "nothing written");

    CheckpointImport.Result[] r = new CheckpointImport.Result[1];
    String out = importInto(target, new CheckpointImport.Options(false, true, Duration.ofMinutes(5)), r);
    assertEquals(Outcome.IMPORTED, r[0].outcome(), out);
    assertEquals(2, r[0].warnings().size(), out);
    assertTrue(out.contains("WARNING (--force): the source looks live: "), out);

    // old enough: only the uncommitted batch is a reason
    Path old = tmp.resolve("old2");
    Files.move(src, old);
    src = old;
    try (Stream<Path> s = Files.walk(src)) {
      for (Path p : s.collect(Collectors.toList())) {
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - 600_000));
      }
    }
    CheckpointImportException uncommitted = assertThrows(CheckpointImportException.class,
        () -> importInto("ckpt://efs/checkpoints/q2", CheckpointImport.Options.defaults(), null));
    assertEquals(1, uncommitted.reasons().size(), uncommitted.getMessage());
  }

  @Test
  void refusesACheckpointLackingWhatItsQueryNeeds() throws Exception {
    stockCheckpoint();
    Files.delete(src.resolve("state/0/1/2.delta"));
    CheckpointImportException e = assertThrows(CheckpointImportException.class,
        () -> importInto(target, NOW, null));
    assertFalse(e.forceable());
    assertEquals(List.of(src.toRealPath().resolve("state/0/1/2.delta") + " is missing: it is needed for state"
        + " version 2: version 3, which the next batch loads, is rebuilt from the deltas down to a snapshot or to"
        + " version 1"), e.reasons(), e.getMessage());
    assertFalse(Files.exists(root.resolve("checkpoints")), "nothing written");
  }

  @Test
  void refusesATargetThatExistsOrThatContainsTheSource() throws Exception {
    stockCheckpoint();
    Files.createDirectories(root.resolve("checkpoints/q1"));
    Files.writeString(root.resolve("checkpoints/q1/other"), "x");
    CheckpointImportException exists = assertThrows(CheckpointImportException.class,
        () -> importInto(target, NOW, null));
    assertTrue(exists.getMessage().contains("ckpt://efs/checkpoints/q1 exists"), exists.getMessage());
    assertFalse(exists.forceable());

    root = tmp; // the source old/q1 is under ckpt://efs/old
    CheckpointImportException nested = assertThrows(CheckpointImportException.class,
        () -> importInto("ckpt://efs/old", NOW, null));
    assertTrue(nested.getMessage().contains("contain one another"), nested.getMessage());
    IllegalArgumentException scheme = assertThrows(IllegalArgumentException.class,
        () -> importInto("s3a://b/old/q1", target, NOW, null));
    assertTrue(scheme.getMessage().contains("expected file:///<path>"), scheme.getMessage());
  }
}
