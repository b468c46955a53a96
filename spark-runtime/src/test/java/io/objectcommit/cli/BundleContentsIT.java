package io.objectcommit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The packaged bundle jar (an IT because only the package phase makes it; it needs no network): it holds every
 * class users name in settings, unrelocated, and nothing that clusters already have.
 */
class BundleContentsIT {

  /** The classes users name in settings or on the command line. */
  static final List<String> NAMED_BY_USERS = List.of(
      "io.objectcommit.checkpoint.CheckpointFileSystem",
      "io.objectcommit.checkpoint.CheckpointFs",
      "io.objectcommit.checkpoint.CheckpointFileManagerImpl",
      "io.objectcommit.direct.DirectParquetOutputCommitter",
      "io.objectcommit.direct.DirectCommitterFactory",
      "io.objectcommit.direct.spark.DirectCommitProtocol",
      "io.objectcommit.staging.spark.StagingCommitProtocol",
      "io.objectcommit.staging.StagingParquetOutputCommitter",
      "io.objectcommit.codecs.BgzfCodec",
      "io.objectcommit.readcache.ReadCache",
      ObjectCommitCommand.class.getName());

  static Path bundle() {
    String p = System.getProperty("objectcommit.bundle.jar");
    assertTrue(p != null && Files.isRegularFile(Path.of(p)), "the packaged bundle jar: " + p);
    return Path.of(p);
  }

  static List<String> entries() throws IOException {
    try (JarFile jar = new JarFile(bundle().toFile())) {
      return Collections.list(jar.entries()).stream().map(e -> e.getName()).collect(Collectors.toList());
    }
  }

  @Test
  void holdsEveryClassUsersName() throws IOException {
    List<String> entries = entries();
    List<String> missing = new ArrayList<>();
    for (String c : NAMED_BY_USERS) {
      if (!entries.contains(c.replace('.', '/') + ".class")) {
        missing.add(c);
      }
    }
    assertEquals(List.of(), missing, "classes missing from " + bundle());
  }

  /**
   * The Delta log store users name in {@code spark.delta.logStore.s3a.impl}: in every bundle, one class for Delta 3.x
   * (Spark 3.5) and Delta 4.x (the Spark 4 lines), whose LogStore API is the same. Delta's own classes are not bundled.
   */
  @Test
  void holdsTheDeltaLogStoreButNotDelta() throws IOException {
    List<String> entries = entries();
    assertTrue(entries.contains("io/objectcommit/delta/ConditionalPutLogStore.class"), "the log store in " + bundle());
    assertTrue(entries.stream().noneMatch(e -> e.startsWith("io/delta/")), "no Delta class in " + bundle());
  }

  /** The modules no class users name lives in, which the others need: the store and the committers' commons. */
  @Test
  void holdsTheModulesUsersDoNotName() throws IOException {
    List<String> entries = entries();
    for (String c : List.of("io/objectcommit/store/ObjectStore.class", "io/objectcommit/commit/JobId.class")) {
      assertTrue(entries.contains(c), c + " in " + bundle());
    }
  }

  @Test
  void holdsNothingTheClusterHas() throws IOException {
    List<String> foreign = entries().stream()
        .filter(e -> e.endsWith(".class"))
        .filter(e -> !e.startsWith("io/objectcommit/"))
        .collect(Collectors.toList());
    assertEquals(List.of(), foreign, "only our own classes belong in the bundle (Hadoop, the AWS SDKs, Spark, "
        + "Parquet and Jackson are provided)");
    for (String prefix : List.of("org/apache/hadoop/", "com/amazonaws/", "software/amazon/", "org/apache/spark/",
        "org/apache/parquet/", "com/fasterxml/")) {
      assertTrue(entries().stream().noneMatch(e -> e.startsWith(prefix)), prefix + " in the bundle");
    }
  }

  /** Both SDK bindings are ours and ship; neither SDK does (a cluster brings the one of its hadoop-aws). */
  @Test
  void holdsBothSdkBindingsAndNeitherSdk() throws IOException {
    List<String> entries = entries();
    for (String binding : List.of("io/objectcommit/store/impl/v1/V1Binding.class",
        "io/objectcommit/store/impl/v2/V2Binding.class")) {
      assertTrue(entries.contains(binding), binding + " in " + bundle());
    }
    assertTrue(entries.stream().noneMatch(e -> e.startsWith("software/amazon/") || e.startsWith("com/amazonaws/")),
        "no AWS SDK in " + bundle());
  }

  @Test
  void mergesServiceFilesAndNamesTheCommand() throws IOException {
    try (JarFile jar = new JarFile(bundle().toFile())) {
      String fs = new String(jar.getInputStream(jar.getEntry("META-INF/services/org.apache.hadoop.fs.FileSystem"))
          .readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(fs.contains("io.objectcommit.direct.impl.DirectWorkFileSystem"), fs);
      assertEquals(ObjectCommitCommand.class.getName(),
          jar.getManifest().getMainAttributes().getValue("Main-Class"));
    }
  }

  /**
   * The bundle's checkpoint manager implements the {@code CheckpointFileManager} of the Spark this test runs on
   * (each line's bundle module runs this test against its own Spark): Spark 4.1 moved the interface to
   * {@code ...streaming.checkpointing}, and a bundle of another line would fail at query start.
   */
  @Test
  void theCheckpointManagerImplementsThisSparksInterface() throws IOException {
    String moved = "org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager";
    boolean spark41 = getClass().getClassLoader().getResource(moved.replace('.', '/') + ".class") != null;
    String expected = spark41 ? moved : "org.apache.spark.sql.execution.streaming.CheckpointFileManager";
    byte[] manager;
    try (JarFile jar = new JarFile(bundle().toFile())) {
      manager = jar.getInputStream(jar.getEntry("io/objectcommit/checkpoint/CheckpointFileManagerImpl.class"))
          .readAllBytes();
    }
    // the class file names its interface in its constant pool (modified UTF-8, ASCII here)
    String constants = new String(manager, StandardCharsets.ISO_8859_1);
    String other = spark41 ? "org/apache/spark/sql/execution/streaming/CheckpointFileManager"
        : moved.replace('.', '/');
    assertTrue(constants.contains(expected.replace('.', '/')), "implements " + expected);
    assertTrue(!constants.contains(other), "does not implement " + other);
  }
}
