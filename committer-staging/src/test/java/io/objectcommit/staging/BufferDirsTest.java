package io.objectcommit.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.staging.impl.BufferDirs;
import java.io.File;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BufferDirsTest {

  @TempDir
  File tmp;

  @Test
  void tasksSpreadOverDisksAndSkipFullOnes() throws IOException {
    File d1 = new File(tmp, "disk1");
    File d2 = new File(tmp, "disk2");
    Map<File, Long> free = new HashMap<>(Map.of(d1, 100L << 20, d2, 100L << 20));
    BufferDirs dirs = new BufferDirs(List.of(d1, d2), 64L << 20, free::get);
    assertTrue(dirs.createAttemptDir("job", "attempt_0", 0).toPath().startsWith(d1.toPath()));
    assertTrue(dirs.createAttemptDir("job", "attempt_1", 1).toPath().startsWith(d2.toPath()));
    free.put(d2, 1L << 20);
    File dir = dirs.createAttemptDir("job", "attempt_3", 3);
    assertEquals(new File(new File(d1, "job"), "attempt_3"), dir);
    assertTrue(dir.isDirectory());
  }

  @Test
  void theJobDirectoryGoesWithItsLastAttempt() throws IOException {
    File d1 = new File(tmp, "disk1");
    BufferDirs dirs = new BufferDirs(List.of(d1), 0, f -> 100L << 20);
    File a0 = dirs.createAttemptDir("job", "attempt_0", 0);
    File a1 = dirs.createAttemptDir("job", "attempt_1", 1);
    assertTrue(BufferDirs.deleteAttemptDir(a0));
    assertTrue(a1.isDirectory(), "another attempt of the job keeps the job directory");
    assertTrue(BufferDirs.deleteAttemptDir(a1));
    assertFalse(new File(d1, "job").exists(), "the job directory is gone with its last attempt");
    assertTrue(d1.isDirectory(), "the buffer directory itself stays");
  }

  @Test
  void noRoomAnywhereNamesEveryDirectory() {
    File d1 = new File(tmp, "disk1");
    File d2 = new File(tmp, "disk2");
    BufferDirs dirs = new BufferDirs(List.of(d1, d2), 64L << 20, f -> 3L << 20);
    NoLocalSpaceException e = assertThrows(NoLocalSpaceException.class,
        () -> dirs.createAttemptDir("job", "attempt_0", 0));
    assertEquals(List.of(d1, d2), e.dirs());
    assertTrue(e.getMessage().contains(d1 + " (3 MiB free)") && e.getMessage().contains(d2 + " (3 MiB free)"),
        e.getMessage());
    assertTrue(dirs.isFull(d1));
  }

  @Test
  void aStaleAttemptDirectoryIsEmptied() throws IOException {
    BufferDirs dirs = new BufferDirs(List.of(tmp), 0);
    File dir = dirs.createAttemptDir("job", "attempt_0", 0);
    assertTrue(new File(dir, "stale.parquet").createNewFile());
    File again = dirs.createAttemptDir("job", "attempt_0", 0);
    assertEquals(0, again.list().length);
  }
}
