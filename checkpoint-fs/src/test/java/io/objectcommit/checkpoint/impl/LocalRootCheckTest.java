package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local-path backend refuses a missing mount, the wrong file system and an unwritable root, clearly. */
class LocalRootCheckTest {

  @TempDir
  Path tmp;

  private static final LocalRootCheck.WriteProbe OK = dir -> { };

  @Test
  void aMissingRootAsksWhetherTheVolumeIsMounted() {
    Path missing = tmp.resolve("efs-not-mounted");
    FileNotFoundException e = assertThrows(FileNotFoundException.class,
        () -> LocalRootCheck.check("efs", missing, "", false, List.of(), OK));
    assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("mounted")
        && e.getMessage().contains("fs.objectcommit.checkpoint.local.root"), e.getMessage());
  }

  @Test
  void theWrongFileSystemTypeIsRefused() throws Exception {
    List<Mounts.Mount> mounts = List.of(new Mounts.Mount(Path.of("/"), "ext4"),
        new Mounts.Mount(Path.of("/mnt/efs"), "nfs4"));
    IOException e = assertThrows(IOException.class,
        () -> LocalRootCheck.check("efs", tmp, "nfs4", false, mounts, OK));
    assertTrue(e.getMessage().contains("ext4") && e.getMessage().contains("nfs4")
        && e.getMessage().contains("fs.objectcommit.checkpoint.local.fs-type"), e.getMessage());
    // the right type passes
    List<Mounts.Mount> nfs = List.of(new Mounts.Mount(tmp.toRealPath(), "nfs4"));
    assertEquals(tmp.toRealPath(), LocalRootCheck.check("efs", tmp, "nfs4", true, nfs, OK));
  }

  @Test
  void aRootThatIsNotAMountPointIsRefusedWhenOneIsRequired() {
    List<Mounts.Mount> mounts = List.of(new Mounts.Mount(Path.of("/"), "ext4"));
    IOException e = assertThrows(IOException.class,
        () -> LocalRootCheck.check("efs", tmp, "", true, mounts, OK));
    assertTrue(e.getMessage().contains("not a mount point"), e.getMessage());
  }

  @Test
  void aPermissionProblemNamesUserUidGidAndOwner() throws Exception {
    LocalRootCheck.WriteProbe denied = dir -> {
      throw new AccessDeniedException(dir.toString());
    };
    AccessDeniedException e = assertThrows(AccessDeniedException.class,
        () -> LocalRootCheck.check("efs", tmp, "", false, List.of(), denied));
    String m = e.getMessage();
    assertTrue(m.contains(System.getProperty("user.name")), m);
    assertTrue(m.matches("(?s).*uid \\d+, gid \\d+.*"), m);
    assertTrue(m.contains("belongs to uid") && m.contains("rwx"), m);
    assertTrue(m.contains("same uid/gid"), m);
  }

  @Test
  void aReallyUnwritableRootFailsWithThePermissionMessage() throws Exception {
    assumeTrue(!"root".equals(System.getProperty("user.name")), "root may write anywhere");
    Path ro = Files.createDirectory(tmp.resolve("ro"));
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    AccessDeniedException e = assertThrows(AccessDeniedException.class,
        () -> LocalRootCheck.check("efs", ro, "", false, List.of(), LocalRootCheck.REAL_PROBE));
    assertTrue(e.getMessage().contains("uid"), e.getMessage());
  }

  @Test
  void theFileSystemRefusesToStartOnAMissingMount() {
    Configuration conf = new Configuration(false);
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    conf.set("fs.objectcommit.bucket.efs.checkpoint.backend", "local");
    conf.set("fs.objectcommit.bucket.efs.checkpoint.local.root", tmp.resolve("nope").toString());
    assertThrows(FileNotFoundException.class, () -> FileSystem.get(URI.create("ckpt://efs/"), conf));
    conf.unset("fs.objectcommit.bucket.efs.checkpoint.local.root");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FileSystem.get(URI.create("ckpt://efs/"), conf));
    assertTrue(e.getMessage().contains("fs.objectcommit.bucket.efs.checkpoint.local.root"), e.getMessage());
  }

  @Test
  void parsesTheMountTable() {
    List<Mounts.Mount> m = Mounts.parse(List.of(
        "/dev/vda1 / ext4 rw,relatime 0 0",
        "fs-1234.efs.us-east-1.amazonaws.com:/ /mnt/my\\040efs nfs4 rw,vers=4.1 0 0"));
    assertEquals(Path.of("/mnt/my efs"), m.get(1).mountPoint);
    assertEquals("nfs4", Mounts.containing(m, Path.of("/mnt/my efs/checkpoints")).type);
    assertEquals("ext4", Mounts.containing(m, Path.of("/home/x")).type);
  }

  @Test
  void noCrcFilesAndNoTempFilesAreLeft() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    conf.set("fs.objectcommit.checkpoint.backend", "local");
    conf.set("fs.objectcommit.checkpoint.local.root", tmp.toString());
    try (FileSystem fs = FileSystem.get(URI.create("ckpt://efs/"), conf)) {
      try (var out = fs.create(new org.apache.hadoop.fs.Path("/q/offsets/0"), false)) {
        out.write(new byte[] {1, 2, 3});
        try (var s = Files.list(tmp.resolve("q/offsets"))) {
          assertEquals(0, fs.listStatus(new org.apache.hadoop.fs.Path("/q/offsets")).length,
              "invisible while written");
          assertEquals(1, s.count(), "one hidden temporary file");
        }
      }
      try (var s = Files.list(tmp.resolve("q/offsets"))) {
        assertEquals(List.of("0"), s.map(p -> p.getFileName().toString()).sorted()
            .collect(Collectors.toList()), "no .crc, no temporary file");
      }
      assertThrows(FileAlreadyExistsException.class,
          () -> fs.create(new org.apache.hadoop.fs.Path("/q/offsets/0"), false));
    }
  }
}
