package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointConstants;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "A parent is a file" is decided by looking at the parents, not by the text of the system's error. */
class LocalPathBackendTest {

  @TempDir
  java.nio.file.Path root;

  private LocalPathBackend backend() {
    return new LocalPathBackend("m", root, false, "me");
  }

  private static Path p(String s) {
    return new Path("ckpt://m/" + s);
  }

  @Test
  void theFileAmongTheParentsIsFound() throws Exception {
    Files.createDirectories(root.resolve("d"));
    Files.write(root.resolve("d/f"), new byte[] {1});
    assertEquals(root.resolve("d/f"), LocalPathBackend.fileAmongParents(root.resolve("d/f/x/y")));
    assertNull(LocalPathBackend.fileAmongParents(root.resolve("d/missing/y")));
    assertNull(LocalPathBackend.fileAmongParents(root.resolve("d/f")));
  }

  @Test
  void aPathBelowAFileIsNotFoundAndCannotBeMadeOrRenamedTo() throws Exception {
    Files.write(root.resolve("f"), new byte[] {1});
    Files.write(root.resolve("g"), new byte[] {2});
    LocalPathBackend b = backend();
    assertThrows(FileNotFoundException.class, () -> b.getFileStatus(p("f/x")));
    assertThrows(ParentNotDirectoryException.class, () -> b.mkdirs(p("f/x/y")));
    assertThrows(ParentNotDirectoryException.class, () -> b.create(p("f/x"), false, true));
    assertFalse(b.rename(p("g"), p("f/x")));
  }

  /** No fencing on the local-path backend (docs/checkpoint-format.md#fencing): refused, never silently ignored. */
  @Test
  void ownershipCannotBeTakenNorGiven() throws Exception {
    LocalPathBackend b = backend();
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> b.takeOwnership(p("q"), "driver-1"));
    assertTrue(e.getMessage().contains("cannot fence"), e.getMessage());
    assertThrows(UnsupportedOperationException.class, () -> b.writeAs(p("q"), "driver-1", 1));
    assertEquals(0, b.epoch(p("q")));
    assertFalse(Files.exists(root.resolve("q")), "nothing made");
  }

  @Test
  void statusesReportTheOneBlockSize() throws Exception {
    Files.write(root.resolve("f"), new byte[] {1});
    assertEquals(CheckpointConstants.BLOCK_SIZE, backend().getFileStatus(p("f")).getBlockSize());
  }
}
