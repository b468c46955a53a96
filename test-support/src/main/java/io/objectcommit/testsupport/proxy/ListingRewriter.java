package io.objectcommit.testsupport.proxy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Rewrites a ListObjects / ListObjectsV2 response ({@code ListBucketResult}) the way an eventually consistent
 * store would have answered: keys written within the window are removed, keys deleted within it are put back,
 * and for delimiter listings a common prefix whose only objects are hidden disappears (a ghost's prefix
 * appears). {@code KeyCount} is adjusted. Keys are decoded and encoded when the request asked for
 * {@code encoding-type=url}.
 */
final class ListingRewriter {

  /** Asks the store which keys exist under a prefix, to decide whether a common prefix is still visible. */
  interface PrefixProbe {
    /** Up to 1,000 keys under {@code keyPrefix}, or null if there are more (then the prefix stays visible). */
    List<String> keysUnder(String bucket, String keyPrefix) throws IOException;
  }

  private final ConsistencyState state;
  private final PrefixProbe probe;

  ListingRewriter(ConsistencyState state, PrefixProbe probe) {
    this.state = state;
    this.probe = probe;
  }

  /** The rewritten body; the input is not modified. */
  byte[] rewrite(S3Request request, byte[] body, FaultPlan plan) throws IOException {
    Document doc = parse(body);
    Element root = doc.getDocumentElement();
    if (!"ListBucketResult".equals(root.getLocalName())) {
      return body;
    }
    String ns = root.getNamespaceURI();
    boolean urlEncoded = "url".equals(request.param("encoding-type"));
    String prefix = nullToEmpty(request.param("prefix"));
    String delimiter = request.param("delimiter");
    String bucket = request.bucket();

    Map<String, Element> contents = new TreeMap<>();
    Map<String, Element> prefixes = new TreeMap<>();
    Node anchor = collect(root, contents, prefixes, urlEncoded);
    boolean truncated = "true".equals(childText(root, "IsTruncated"));
    String firstListed = first(contents, prefixes);
    String lastListed = last(contents, prefixes);

    contents.keySet().removeIf(key -> state.hiddenFromListing(bucket + "/" + key, plan));
    List<String> gone = new ArrayList<>();
    for (String commonPrefix : prefixes.keySet()) {
      if (state.anyHiddenUnder(bucket + "/" + commonPrefix, plan) && allHidden(bucket, commonPrefix, plan)) {
        gone.add(commonPrefix);
      }
    }
    gone.forEach(prefixes::remove);

    for (ListingEntry ghost : state.ghostsUnder(bucket, prefix, plan)) {
      if (!inPage(ghost.key, request, truncated, firstListed, lastListed)) {
        continue;
      }
      String rest = ghost.key.substring(prefix.length());
      int d = delimiter == null || delimiter.isEmpty() ? -1 : rest.indexOf(delimiter);
      if (d >= 0) {
        String commonPrefix = prefix + rest.substring(0, d + delimiter.length());
        prefixes.computeIfAbsent(commonPrefix, p -> prefixElement(doc, ns, p, urlEncoded));
      } else {
        contents.computeIfAbsent(ghost.key, k -> contentsElement(doc, ns, ghost, urlEncoded));
      }
    }

    for (Element e : contents.values()) {
      root.insertBefore(e, anchor);
    }
    for (Element e : prefixes.values()) {
      root.insertBefore(e, anchor);
    }
    Element keyCount = child(root, "KeyCount");
    if (keyCount != null) {
      keyCount.setTextContent(Integer.toString(contents.size() + prefixes.size()));
    }
    return serialize(doc);
  }

  private boolean allHidden(String bucket, String commonPrefix, FaultPlan plan) throws IOException {
    List<String> keys = probe.keysUnder(bucket, commonPrefix);
    if (keys == null) {
      return false;
    }
    for (String key : keys) {
      if (!state.hiddenFromListing(bucket + "/" + key, plan)) {
        return false;
      }
    }
    return true;
  }

  /** Whether a ghost key belongs to the page the store returned (pages are ordered by key). */
  private static boolean inPage(String key, S3Request request, boolean truncated, String first, String last) {
    String after = request.param("start-after") != null ? request.param("start-after") : request.param("marker");
    if (after != null && key.compareTo(after) <= 0) {
      return false;
    }
    if (request.param("continuation-token") != null && (first == null || key.compareTo(first) < 0)) {
      return false;
    }
    return !truncated || (last != null && key.compareTo(last) <= 0);
  }

  /** Removes Contents and CommonPrefixes from {@code root} into the maps; returns the node that followed them. */
  private static Node collect(Element root, Map<String, Element> contents, Map<String, Element> prefixes,
      boolean urlEncoded) {
    Node anchor = null;
    List<Element> remove = new ArrayList<>();
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (!(n instanceof Element)) {
        continue;
      }
      Element e = (Element) n;
      if ("Contents".equals(e.getLocalName())) {
        contents.put(decode(childText(e, "Key"), urlEncoded), e);
        remove.add(e);
        anchor = null;
      } else if ("CommonPrefixes".equals(e.getLocalName())) {
        prefixes.put(decode(childText(e, "Prefix"), urlEncoded), e);
        remove.add(e);
        anchor = null;
      } else if (anchor == null && !remove.isEmpty()) {
        anchor = e;
      }
    }
    remove.forEach(root::removeChild);
    return anchor;
  }

  private static Element contentsElement(Document doc, String ns, ListingEntry entry, boolean urlEncoded) {
    Element c = doc.createElementNS(ns, "Contents");
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("Key", encode(entry.key, urlEncoded));
    fields.put("LastModified", entry.lastModified);
    fields.put("ETag", entry.etag);
    fields.put("Size", Long.toString(entry.size));
    fields.put("StorageClass", "STANDARD");
    fields.forEach((name, value) -> {
      Element f = doc.createElementNS(ns, name);
      f.setTextContent(value);
      c.appendChild(f);
    });
    return c;
  }

  private static Element prefixElement(Document doc, String ns, String prefix, boolean urlEncoded) {
    Element c = doc.createElementNS(ns, "CommonPrefixes");
    Element p = doc.createElementNS(ns, "Prefix");
    p.setTextContent(encode(prefix, urlEncoded));
    c.appendChild(p);
    return c;
  }

  private static String first(Map<String, Element> a, Map<String, Element> b) {
    return Stream.concat(a.keySet().stream(), b.keySet().stream())
        .min(Comparator.naturalOrder()).orElse(null);
  }

  private static String last(Map<String, Element> a, Map<String, Element> b) {
    return Stream.concat(a.keySet().stream(), b.keySet().stream())
        .max(Comparator.naturalOrder()).orElse(null);
  }

  static Element child(Element parent, String localName) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && localName.equals(n.getLocalName())) {
        return (Element) n;
      }
    }
    return null;
  }

  static String childText(Element parent, String localName) {
    Element e = child(parent, localName);
    return e == null ? null : e.getTextContent();
  }

  private static String decode(String s, boolean urlEncoded) {
    if (s == null) {
      return "";
    }
    return urlEncoded ? URLDecoder.decode(s, StandardCharsets.UTF_8) : s;
  }

  private static String encode(String s, boolean urlEncoded) {
    return urlEncoded ? URLEncoder.encode(s, StandardCharsets.UTF_8).replace("%2F", "/") : s;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  static Document parse(byte[] body) throws IOException {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return f.newDocumentBuilder().parse(new ByteArrayInputStream(body));
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException("not a parseable XML response: " + e.getMessage(), e);
    }
  }

  private static byte[] serialize(Document doc) throws IOException {
    try {
      Transformer t = TransformerFactory.newInstance().newTransformer();
      t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      t.transform(new DOMSource(doc), new StreamResult(out));
      return out.toByteArray();
    } catch (TransformerException e) {
      throw new IOException("cannot serialise the rewritten listing", e);
    }
  }
}
