package io.objectcommit.checkpoint.impl;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.checkpoint.UnsafeMountException;
import io.objectcommit.store.config.ConfigReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NFS mount options check, on /proc/mounts lines as Linux writes them for EFS and other NFS servers. */
class NfsMountCheckTest {

  /** EFS mounted with the recommended options, through efs-utils (TLS tunnel on 127.0.0.1). */
  static final String EFS_UTILS = "127.0.0.1:/ /mnt/efs nfs4 rw,relatime,vers=4.1,rsize=1048576,wsize=1048576,"
      + "namlen=255,hard,noresvport,proto=tcp,port=20127,timeo=600,retrans=2,sec=sys,clientaddr=127.0.0.1,"
      + "local_lock=none,addr=127.0.0.1 0 0";
  /** EFS mounted directly by its DNS name with the recommended options. */
  static final String EFS_DNS = "fs-0123456789abcdef0.efs.us-east-1.amazonaws.com:/ /mnt/efs nfs4 rw,relatime,"
      + "vers=4.1,rsize=1048576,wsize=1048576,namlen=255,hard,noresvport,proto=tcp,timeo=600,retrans=2,sec=sys,"
      + "clientaddr=10.0.1.23,local_lock=none,addr=10.0.0.12 0 0";
  /** A tuned mount: short attribute caching, no negative lookups, and the unsafe soft and nocto. */
  static final String TUNED = "nfs.example.com:/export/ckpt /mnt/ckpt\\040dir nfs4 rw,relatime,vers=4.2,"
      + "rsize=524288,wsize=524288,namlen=255,acregmin=1,acregmax=1,acdirmin=1,acdirmax=1,soft,nocto,proto=tcp,"
      + "timeo=600,retrans=2,sec=sys,clientaddr=10.0.1.23,lookupcache=pos,local_lock=none,addr=10.0.0.7 0 0";
  static final String NFS3 = "filer:/vol/ckpt /mnt/v3 nfs rw,relatime,vers=3,rsize=1048576,wsize=1048576,"
      + "namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,mountaddr=10.0.0.5,mountvers=3,mountport=20048,"
      + "mountproto=udp,local_lock=none,addr=10.0.0.5 0 0";
  static final String NFSLIKE = "nfslike:vers=4.1;nocto;lookupcache=pos;hard /tmp/m/b fuse.nfslike "
      + "rw,nosuid,nodev,relatime,user_id=0,group_id=0 0 0";
  static final String EXT4 = "/dev/nvme0n1p1 / ext4 rw,relatime,discard,errors=remount-ro 0 0";

  private static Mounts.Mount mount(String line) {
    return Mounts.parse(List.of(line)).get(0);
  }

  private static List<String> unsafe(String line, String nfsLikeType) {
    return NfsMountCheck.nfsOptions(mount(line), nfsLikeType).map(NfsMountCheck::findings).orElse(List.of())
        .stream().map(f -> f.option).collect(Collectors.toList());
  }

  @Test
  void parsesSourceMountPointTypeAndOptions() {
    Mounts.Mount m = mount(TUNED);
    assertEquals("nfs.example.com:/export/ckpt", m.source);
    assertEquals(Path.of("/mnt/ckpt dir"), m.mountPoint);
    assertEquals("nfs4", m.type);
    assertEquals("pos", NfsMountCheck.parseOptions(m.options).get("lookupcache"));
    assertEquals("1", NfsMountCheck.parseOptions(m.options).get("acdirmax"));
    assertTrue(NfsMountCheck.parseOptions(m.options).containsKey("nocto"));
  }

  @Test
  void efsRecommendedOptionsAreSafe() {
    assertEquals(List.of(), unsafe(EFS_UTILS, ""));
    assertEquals(List.of(), unsafe(EFS_DNS, ""));
    assertEquals(List.of(), unsafe(NFS3, ""));
  }

  @Test
  void noctoAndSoftAreUnsafe() {
    assertEquals(List.of("nocto", "soft"), unsafe(TUNED, ""));
    assertEquals(List.of("softerr"), unsafe(EFS_DNS.replace(",hard,", ",softerr,"), ""));
  }

  @Test
  void otherFileSystemsAreNotChecked() {
    assertEquals(List.of(), unsafe(EXT4, ""));
    assertEquals(List.of(), unsafe(NFSLIKE, ""), "the test file system only when the test-only key names its type");
    assertEquals(List.of("nocto"), unsafe(NFSLIKE, "fuse.nfslike"));
  }

  @Test
  void rootCheckRefusesUnsafeMountsNamingOptionAndFix(@TempDir Path tmp) throws Exception {
    Path real = tmp.toRealPath();
    String line = TUNED.replace("/mnt/ckpt\\040dir", real.toString());
    List<Mounts.Mount> mounts = Mounts.parse(List.of(EXT4, line));
    UnsafeMountException e = assertThrows(UnsafeMountException.class, () -> LocalRootCheck.check("efs", tmp, "",
        false, NfsMountCheck.OnUnsafe.FAIL, "", mounts, d -> { }));
    assertEquals(List.of("nocto", "soft"), e.options());
    assertTrue(e.getMessage().contains("remove nocto") && e.getMessage().contains("mount with hard")
        && e.getMessage().contains(CheckpointConstants.LOCAL_UNSAFE_MOUNT), e.getMessage());
    assertEquals(real, LocalRootCheck.check("efs", tmp, "", false, NfsMountCheck.OnUnsafe.WARN, "", mounts,
        d -> { }));
    List<Mounts.Mount> efs = Mounts.parse(List.of(EXT4, EFS_DNS.replace("/mnt/efs", real.toString())));
    assertDoesNotThrow(() -> LocalRootCheck.check("efs", tmp, "nfs4", true, efs, d -> { }));
  }

  @Test
  void keyIsParsedOnceWithItsDefaultAndBadValuesNameIt(@TempDir Path tmp) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(CheckpointConstants.BACKEND, "local");
    conf.set(CheckpointConstants.LOCAL_ROOT, Files.createDirectories(tmp.resolve("r")).toString());
    assertEquals(NfsMountCheck.OnUnsafe.FAIL, CheckpointOptions.from(new ConfigReader(conf, "efs1"), "ckpt")
        .localUnsafeMount());
    conf.set("fs.objectcommit.bucket.efs1.checkpoint.local.unsafe-mount", "warn");
    assertEquals(NfsMountCheck.OnUnsafe.WARN, CheckpointOptions.from(new ConfigReader(conf, "efs1"), "ckpt")
        .localUnsafeMount());
    conf.set(CheckpointConstants.LOCAL_UNSAFE_MOUNT, "ignore");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CheckpointOptions.from(new ConfigReader(conf, "other"), "ckpt"));
    assertTrue(e.getMessage().contains(CheckpointConstants.LOCAL_UNSAFE_MOUNT), e.getMessage());
  }
}
