package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local-path backend's publication, through the streams {@link LocalPathBackend#create} returns: the file
 * appears whole at close, an exclusive create that loses leaves the existing file as it was, and no outcome leaves
 * a temporary file behind.
 */
class LocalPublicationTest {

  @TempDir
  java.nio.file.Path root;

  private LocalPathBackend backend() {
    return new LocalPathBackend("m", root, true, "me");
  }

  private static Path p(String s) {
    return new Path("ckpt://m/" + s);
  }

  private List<String> names(String dir) throws Exception {
    try (Stream<java.nio.file.Path> s = Files.list(root.resolve(dir))) {
      return s.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void theFileAppearsAtCloseAndNoTemporaryFileIsLeft() throws Exception {
    FSDataOutputStream out = backend().create(p("q/commits/0"), false, true);
    out.write("v1".getBytes(StandardCharsets.UTF_8));
    assertFalse(Files.exists(root.resolve("q/commits/0")), "not visible before close");
    assertEquals(1, names("q/commits").size(), "only the hidden temporary file: " + names("q/commits"));
    out.close();
    assertEquals(List.of("0"), names("q/commits"));
    assertEquals("v1", Files.readString(root.resolve("q/commits/0")));
  }

  @Test
  void anExclusiveCreateThatLosesLeavesTheExistingFileAndNoTemporaryFile() throws Exception {
    LocalPathBackend b = backend();
    FSDataOutputStream loser = b.create(p("q/commits/1"), false, true);
    loser.write("loser".getBytes(StandardCharsets.UTF_8));
    try (FSDataOutputStream winner = b.create(p("q/commits/1"), false, true)) {
      winner.write("winner".getBytes(StandardCharsets.UTF_8));
    }
    FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class, loser::close);
    assertEquals(p("q/commits/1") + " already exists", e.getMessage());
    assertEquals("winner", Files.readString(root.resolve("q/commits/1")));
    assertEquals(List.of("1"), names("q/commits"));
  }

  @Test
  void anOverwriteReplacesTheFileWhole() throws Exception {
    LocalPathBackend b = backend();
    try (FSDataOutputStream out = b.create(p("q/metadata"), true, true)) {
      out.write("first".getBytes(StandardCharsets.UTF_8));
    }
    try (FSDataOutputStream out = b.create(p("q/metadata"), true, true)) {
      out.write("second".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals("second", Files.readString(root.resolve("q/metadata")));
    assertEquals(List.of("metadata"), names("q"));
  }

  @Test
  void anAbortedStreamLeavesNoFileAndNoTemporaryFile() throws Exception {
    FSDataOutputStream out = backend().create(p("q/commits/2"), false, true);
    out.write("never".getBytes(StandardCharsets.UTF_8));
    assertFalse(out.abort().alreadyClosed());
    out.close();
    assertEquals(List.of(), names("q/commits"));
  }
}
