package io.objectcommit.checkpoint.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.files.CorruptRecordException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The owner stamp of fencing: optional, kept by copies, validated, and absent from manifests nobody fenced. */
class DirManifestOwnerTest {

  private static DirManifest parse(String json) throws Exception {
    return DirManifest.CODEC.fromBytes(json.getBytes(StandardCharsets.UTF_8), "s3://b/.ckpt/dirs/d.json");
  }

  @Test
  void theStampIsReadWrittenAndCopied() throws Exception {
    DirManifest m = DirManifest.empty("d", "/q/offsets");
    String plain = new String(DirManifest.CODEC.toBytes(m), StandardCharsets.UTF_8);
    assertFalse(plain.contains("owner"), "no stamp written for a manifest nobody fenced: " + plain);
    assertEquals(2, m.getVersion(), "no version bump");

    m.owner = new DirManifest.Owner("/q", 3, "app-1/run-2");
    DirManifest read = parse(new String(DirManifest.CODEC.toBytes(m), StandardCharsets.UTF_8));
    assertEquals(m.owner, read.owner);
    assertEquals(m.owner, read.copy().owner, "a copy keeps the stamp");
  }

  /** A release before fencing reads a stamped manifest: unknown fields are ignored (as for {@code etag}). */
  @Test
  void aVersion1ManifestWithAStampIsReadAndOneWithoutHasNone() throws Exception {
    DirManifest stamped = parse("{\"type\":\"objectcommit/checkpoint/dir-manifest\",\"version\":1,\"dirId\":\"d\","
        + "\"owner\":{\"location\":\"/q\",\"epoch\":1,\"id\":\"x\",\"future\":true},\"entries\":{}}");
    assertEquals(1, stamped.owner.epoch);
    assertNull(parse("{\"type\":\"objectcommit/checkpoint/dir-manifest\",\"version\":1,\"dirId\":\"d\","
        + "\"entries\":{}}").owner);
  }

  @Test
  void aBadStampIsRefusedNamingTheObject() {
    for (String owner : new String[] {"{\"location\":\"/q\",\"epoch\":0,\"id\":\"x\"}",
        "{\"epoch\":2,\"id\":\"x\"}", "{\"location\":\"/q\",\"epoch\":2}"}) {
      CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> parse(
          "{\"type\":\"objectcommit/checkpoint/dir-manifest\",\"version\":2,\"dirId\":\"d\",\"owner\":" + owner
          + ",\"entries\":{}}"));
      assertTrue(e.getMessage().contains("s3://b/.ckpt/dirs/d.json") && e.getMessage().contains("bad owner"),
          e.getMessage());
    }
  }
}
