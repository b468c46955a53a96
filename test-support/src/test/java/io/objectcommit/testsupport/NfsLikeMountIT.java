package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The NFS-like test file system behaves as the NFS client it models: two mounts of one backing directory are two
 * clients whose caches are their own. Each test says which client options it uses.
 */
class NfsLikeMountIT {

  private Path base;

  @BeforeEach
  void setUp() throws Exception {
    NfsLikeMount.assumeAvailable();
    base = Files.createDirectories(S3Endpoints.workDir().resolve("nfslike-it").resolve(Long.toString(System.nanoTime())));
  }

  private NfsLikeMount mount(String name, NfsClientOptions o) throws Exception {
    return NfsLikeMount.mount(base.resolve("backing"), base.resolve(name), o, base);
  }

  private static List<String> list(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  /** Linux defaults: "no such file" is remembered; opening the directory (close-to-open) revalidates it. */
  @Test
  void negativeLookupIsCachedUntilTheDirectoryIsRevalidated() throws Exception {
    NfsClientOptions o = NfsClientOptions.linuxDefaults();
    try (NfsLikeMount a = mount("a", o); NfsLikeMount b = mount("b", o)) {
      assertTrue(a.procMountsLine().contains("nfslike:vers=4.1;hard " + a.path() + " fuse.nfslike"),
          a.procMountsLine());
      assertFalse(Files.exists(b.path().resolve("f")));
      Files.writeString(a.path().resolve("f"), "one");
      assertFalse(Files.exists(b.path().resolve("f")), "client b trusts its negative entry (acdirmin=30 s)");
      assertThrows(NoSuchFileException.class, () -> Files.readString(b.path().resolve("f")));
      assertTrue(b.roundTrips().getOrDefault("negative_hit", 0L) >= 2, b.roundTrips().toString());
      assertEquals(List.of("f"), list(b.path()), "opendir revalidates the directory (close-to-open)");
      assertEquals("one", Files.readString(b.path().resolve("f")), "the changed directory dropped the entry");
    }
  }

  /** lookupcache=positive: a name another client created is found at once. */
  @Test
  void lookupcachePositiveAsksTheServerForMissingNames() throws Exception {
    NfsClientOptions o = NfsClientOptions.linuxDefaults().withLookupCache(NfsClientOptions.LookupCache.POSITIVE);
    try (NfsLikeMount a = mount("a", NfsClientOptions.linuxDefaults()); NfsLikeMount b = mount("b", o)) {
      assertTrue(b.procMountsLine().contains("lookupcache=pos"), b.procMountsLine());
      assertFalse(Files.exists(b.path().resolve("f")));
      Files.writeString(a.path().resolve("f"), "one");
      assertEquals("one", Files.readString(b.path().resolve("f")));
    }
  }

  /**
   * nocto: the listing is served from the cache while the directory's attributes are fresh, so a file another
   * client created is missing from it; with a short acdir time-to-live it appears once that expires.
   */
  @Test
  void withoutCloseToOpenListingsAreStaleUntilTheAttributesExpire() throws Exception {
    NfsClientOptions o = NfsClientOptions.linuxDefaults().withNoCto().withAcdir(2, 2);
    try (NfsLikeMount a = mount("a", NfsClientOptions.linuxDefaults()); NfsLikeMount b = mount("b", o)) {
      Files.writeString(a.path().resolve("old"), "x");
      assertEquals(List.of("old"), list(b.path()));
      Files.writeString(a.path().resolve("new"), "y");
      assertEquals(List.of("old"), list(b.path()), "stale listing (nocto, directory attributes fresh)");
      Thread.sleep(2200);
      assertEquals(List.of("new", "old"), list(b.path()));
    }
  }

  /** Close-to-open, link and rename: data written and closed on one client is read whole on another. */
  @Test
  void closeToOpenLinkAndRename() throws Exception {
    NfsClientOptions o = NfsClientOptions.linuxDefaults();
    try (NfsLikeMount a = mount("a", o); NfsLikeMount b = mount("b", o)) {
      Path tmp = a.path().resolve(".tmp");
      Files.writeString(tmp, "v1");
      Files.createLink(a.path().resolve("f"), tmp);
      assertThrows(FileAlreadyExistsException.class, () -> Files.createLink(a.path().resolve("f"), tmp));
      Files.delete(tmp);
      assertEquals("v1", Files.readString(b.path().resolve("f")));
      Files.writeString(a.path().resolve(".tmp2"), "v2 longer");
      Files.move(a.path().resolve(".tmp2"), a.path().resolve("f"), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      assertEquals("v2 longer", new String(Files.readAllBytes(b.path().resolve("f")), StandardCharsets.UTF_8),
          "open revalidates (close-to-open)");
      assertTrue(a.roundTrips().get("LINK") >= 1 && a.roundTrips().get("RENAME") >= 1, a.roundTrips().toString());
    }
  }

  /** Closing unmounts and stops the process: nothing is left behind. */
  @Test
  void closeLeavesNoMountAndNoProcess() throws Exception {
    NfsLikeMount a = mount("a", NfsClientOptions.linuxDefaults());
    long pid = a.procMountsLine().isEmpty() ? -1 : ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("nfslike.py")).findFirst().orElseThrow().pid();
    a.close();
    assertFalse(NfsLikeMount.isMounted(a.path()));
    Thread.sleep(200);
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "nfslike.py still runs");
  }
}
