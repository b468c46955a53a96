package io.objectcommit.testsupport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ListingRewriterTest {

  private static final String NS = "http://s3.amazonaws.com/doc/2006-03-01/";
  private final AtomicLong clock = new AtomicLong(100_000);
  private final ConsistencyState state = new ConsistencyState(clock::get);
  private final List<String> probed = new ArrayList<>();
  private final FaultPlan plan = FaultPlan.builder(3).listingInconsistency(Duration.ofSeconds(5)).build();

  private ListingRewriter rewriter(List<String> keysUnderProbe) {
    return new ListingRewriter(state, (bucket, prefix) -> {
      probed.add(prefix);
      return keysUnderProbe;
    });
  }

  private static String listing(boolean truncated, String[] keys, String[] prefixes, boolean urlEncoded) {
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult xmlns=\"" + NS
        + "\"><Name>b</Name><Prefix>t/</Prefix><KeyCount>" + (keys.length + prefixes.length)
        + "</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>" + truncated + "</IsTruncated>");
    for (String k : keys) {
      sb.append("<Contents><Key>").append(urlEncoded ? k.replace(" ", "%20") : k)
          .append("</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>\"e\"</ETag><Size>1</Size>"
              + "<StorageClass>STANDARD</StorageClass></Contents>");
    }
    for (String p : prefixes) {
      sb.append("<CommonPrefixes><Prefix>").append(p).append("</Prefix></CommonPrefixes>");
    }
    return sb.append(urlEncoded ? "<EncodingType>url</EncodingType>" : "").append("</ListBucketResult>").toString();
  }

  private static List<String> all(String xml, String element) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("<" + element + ">([^<]*)</" + element + ">").matcher(xml);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private String rewrite(ListingRewriter r, String target, String xml) throws IOException {
    S3Request req = S3Request.classify("GET", target, null);
    return new String(r.rewrite(req, xml.getBytes(StandardCharsets.UTF_8), plan), StandardCharsets.UTF_8);
  }

  @Test
  void removesNewKeysAddsGhostsInOrderAndFixesKeyCount() throws IOException {
    state.recordWrite("b/t/new", null);
    state.recordDelete("b/t/b-deleted", new ListingEntry("t/b-deleted", 7, "\"g\"", "2026-01-02T00:00:00.000Z"));
    String out = rewrite(rewriter(List.of()), "/b?list-type=2&prefix=t%2F",
        listing(false, new String[] {"t/a", "t/new", "t/c"}, new String[0], false));
    assertEquals(List.of("t/a", "t/b-deleted", "t/c"), all(out, "Key"));
    assertEquals(List.of("3"), all(out, "KeyCount"));
    assertTrue(out.contains("<Size>7</Size>"), out);
    assertTrue(out.indexOf("<IsTruncated>") < out.indexOf("<Contents>"), "element order kept: " + out);
  }

  @Test
  void commonPrefixDisappearsOnlyWhenAllItsKeysAreHidden() throws IOException {
    state.recordWrite("b/t/only-new/x", null);
    state.recordWrite("b/t/mixed/new", null);
    ListingRewriter onlyNew = rewriter(List.of("t/only-new/x"));
    String out = rewrite(onlyNew, "/b?list-type=2&prefix=t%2F&delimiter=%2F",
        listing(false, new String[0], new String[] {"t/only-new/"}, false));
    assertEquals(List.of("t/"), all(out, "Prefix"), "only the request's own Prefix remains: " + out);
    assertEquals(List.of("0"), all(out, "KeyCount"));

    ListingRewriter mixed = rewriter(List.of("t/mixed/new", "t/mixed/old"));
    out = rewrite(mixed, "/b?list-type=2&prefix=t%2F&delimiter=%2F",
        listing(false, new String[0], new String[] {"t/mixed/"}, false));
    assertTrue(all(out, "Prefix").contains("t/mixed/"), out);
    assertEquals(List.of("t/only-new/", "t/mixed/"), probed);
  }

  @Test
  void ghostUnderADelimiterBecomesACommonPrefix() throws IOException {
    state.recordDelete("b/t/dir/f", new ListingEntry("t/dir/f", 1, "\"e\"", "2026-01-02T00:00:00.000Z"));
    String out = rewrite(rewriter(List.of()), "/b?list-type=2&prefix=t%2F&delimiter=%2F",
        listing(false, new String[] {"t/a"}, new String[0], false));
    assertTrue(all(out, "Prefix").contains("t/dir/"), out);
    assertEquals(List.of("t/a"), all(out, "Key"));
    assertEquals(List.of("2"), all(out, "KeyCount"));
  }

  @Test
  void ghostsOutsideATruncatedPageAreLeftForTheirPage() throws IOException {
    state.recordDelete("b/t/z", new ListingEntry("t/z", 1, "\"e\"", "2026-01-02T00:00:00.000Z"));
    String out = rewrite(rewriter(List.of()), "/b?list-type=2&prefix=t%2F",
        listing(true, new String[] {"t/a", "t/b"}, new String[0], false));
    assertEquals(List.of("t/a", "t/b"), all(out, "Key"));
  }

  @Test
  void urlEncodedKeysAreComparedDecoded() throws IOException {
    state.recordWrite("b/t/with space", null);
    String out = rewrite(rewriter(List.of()), "/b?list-type=2&prefix=t%2F&encoding-type=url",
        listing(false, new String[] {"t/with space", "t/plain"}, new String[0], true));
    assertEquals(List.of("t/plain"), all(out, "Key"));
    clock.addAndGet(5_000);
    out = rewrite(rewriter(List.of()), "/b?list-type=2&prefix=t%2F&encoding-type=url",
        listing(false, new String[] {"t/with space"}, new String[0], true));
    assertFalse(all(out, "Key").isEmpty());
  }
}
