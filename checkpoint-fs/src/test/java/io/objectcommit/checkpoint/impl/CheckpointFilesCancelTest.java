package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Abortable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CheckpointFiles#cancel}, the cancel of every Spark line's CheckpointFileManagerImpl: a {@code ckpt://}
 * stream is aborted (nothing visible); a foreign stream is aborted when it says it can be, else closed.
 */
class CheckpointFilesCancelTest {

  @TempDir
  java.nio.file.Path root;

  private Configuration localCkpt() {
    Configuration conf = new Configuration(false);
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    conf.set("fs.objectcommit.checkpoint.backend", "local");
    conf.set("fs.objectcommit.checkpoint.local.root", root.toString());
    conf.setBoolean("fs.objectcommit.checkpoint.local.fsync", false);
    return conf;
  }

  @Test
  void aCancelledCheckpointStreamLeavesNothing() throws Exception {
    Path dir = new Path("ckpt://efs/q/commits");
    CheckpointFiles files = new CheckpointFiles(dir, localCkpt());
    files.mkdirs(dir);
    FSDataOutputStream out = files.createAtomic(new Path(dir, "0"), false);
    out.write("v1".getBytes(StandardCharsets.UTF_8));
    CheckpointFiles.cancel(out);
    out.close();
    assertFalse(files.exists(new Path(dir, "0")));
    try (Stream<java.nio.file.Path> left = Files.list(root.resolve("q/commits"))) {
      assertEquals(0, left.count(), "no temporary file either");
    }
  }

  /** A foreign stream that can be aborted (as S3A's can): aborted, never closed, so nothing is published. */
  @Test
  void aForeignAbortableStreamIsAborted() throws Exception {
    Foreign foreign = new Foreign(true, null);
    CheckpointFiles.cancel(new FSDataOutputStream(foreign, null));
    assertTrue(foreign.aborted);
    assertFalse(foreign.closed);
  }

  @Test
  void aForeignStreamThatCannotBeAbortedIsClosed() throws Exception {
    Foreign foreign = new Foreign(false, null);
    CheckpointFiles.cancel(new FSDataOutputStream(foreign, null));
    assertFalse(foreign.aborted);
    assertTrue(foreign.closed);
  }

  @Test
  void anAbortThatCouldNotCleanUpIsReported() {
    IOException leftover = new IOException("could not delete the buffer file");
    IOException e = assertThrows(IOException.class,
        () -> CheckpointFiles.cancel(new FSDataOutputStream(new Foreign(true, leftover), null)));
    assertSame(leftover, e);
  }

  /** Another file system's stream, abortable or not. */
  private static final class Foreign extends ByteArrayOutputStream implements Abortable, StreamCapabilities {
    private final boolean abortable;
    private final IOException cleanup;
    boolean aborted;
    boolean closed;

    Foreign(boolean abortable, IOException cleanup) {
      this.abortable = abortable;
      this.cleanup = cleanup;
    }

    @Override
    public AbortableResult abort() {
      aborted = true;
      return new AbortableResult() {
        @Override
        public boolean alreadyClosed() {
          return false;
        }

        @Override
        public IOException anyCleanupException() {
          return cleanup;
        }
      };
    }

    @Override
    public boolean hasCapability(String capability) {
      return abortable && ABORTABLE_STREAM.equals(capability);
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
