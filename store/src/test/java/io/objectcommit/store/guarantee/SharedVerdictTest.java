package io.objectcommit.store.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verdict as a configuration value: its key per bucket and endpoint, its JSON, what is refused. */
class SharedVerdictTest {

  private static final String WHERE = "bucket 'lake' at endpoint http://10.0.0.5:9000 (region us-east-1)";

  @Test
  void roundTrip() {
    SharedVerdict v = new SharedVerdict("app-20261125101010-0003", WHERE,
        EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE),
        Map.of(StoreGuarantee.ABORT_KEEPS_EXISTING, "the existing object was deleted"));
    String json = v.encode();
    assertEquals("{\"v\":1,\"application\":\"app-20261125101010-0003\",\"store\":\"" + WHERE + "\",\"held\":"
        + "[\"IF_NONE_MATCH_PUT\",\"ATOMIC_EXCLUSIVE_CREATE\"],\"failed\":{\"ABORT_KEEPS_EXISTING\":"
        + "\"the existing object was deleted\"}}", json);
    SharedVerdict back = SharedVerdict.decode(json);
    assertEquals(v, back);
    assertEquals(EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE), back.held());
    assertEquals(EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT, StoreGuarantee.ATOMIC_EXCLUSIVE_CREATE,
        StoreGuarantee.ABORT_KEEPS_EXISTING), back.checked());
  }

  @Test
  void oneKeyPerBucketAndEndpoint() {
    String key = SharedVerdict.key("lake", WHERE);
    assertTrue(key.matches("fs\\.objectcommit\\.internal\\.store-verdict\\.lake\\.[0-9a-f]{12}"), key);
    assertEquals(key, SharedVerdict.key("lake", WHERE));
    assertNotEquals(key, SharedVerdict.key("lake", WHERE.replace("10.0.0.5", "10.0.0.6")));
  }

  @Test
  void whatIsNotAVerdictIsRefusedSayingWhy() {
    for (String[] bad : new String[][] {
        {"{not json", "not JSON"},
        {"{\"v\":2,\"application\":\"a\",\"store\":\"s\",\"held\":[],\"failed\":{}}", "format 1"},
        {"{\"v\":1,\"store\":\"s\",\"held\":[],\"failed\":{}}", "needs application"},
        {"{\"v\":1,\"application\":\"a\",\"store\":\"s\",\"held\":[\"FAST\"],\"failed\":{}}", "unknown guarantee"},
        {"{\"v\":1,\"application\":\"a\",\"store\":\"s\",\"held\":[\"IF_MATCH_PUT\"],\"failed\":{\"IF_MATCH_PUT\":"
            + "\"x\"}}", "both held and failed"}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SharedVerdict.decode(bad[0]));
      assertTrue(e.getMessage().contains(bad[1]), bad[0] + ": " + e.getMessage());
    }
  }
}
