package io.objectcommit.testsupport;

import io.objectcommit.testsupport.proxy.SigV4Signer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * An S3 client for the test harness without any AWS SDK: {@code java.net.http} and {@link SigV4Signer}, so the
 * harness works on class paths with SDK v1, SDK v2 or neither (the Spark 4 lines). Only what tests need: buckets,
 * small objects, listing, multipart upload bookkeeping. Every failure is a {@link PlainS3Exception}.
 */
public final class PlainS3 {

  /** One incomplete multipart upload. */
  public record Upload(String key, String uploadId) {
  }

  /** One page of a ListObjectsV2 answer. */
  record ListPage(List<String> keys, List<String> etags, boolean truncated, String nextToken) {
  }

  /**
   * One entry of a ListObjectVersions answer: an object version or a delete marker ({@code size} 0), and whether
   * it is the key's current (latest) entry.
   */
  public record Version(String key, String versionId, boolean latest, boolean deleteMarker, long size) {
  }

  /** One page of a ListObjectVersions answer. */
  record VersionPage(List<Version> versions, boolean truncated, String nextKeyMarker, String nextVersionIdMarker) {
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final S3Endpoint endpoint;
  private final SigV4Signer signer;
  private final HttpClient http;

  public PlainS3(S3Endpoint endpoint) {
    this.endpoint = endpoint;
    this.signer = new SigV4Signer(endpoint.accessKey(), endpoint.secretKey(), endpoint.region());
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
  }

  public void createBucket(String bucket) {
    byte[] body = "us-east-1".equals(endpoint.region()) ? new byte[0]
        : ("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
            + endpoint.region() + "</LocationConstraint></CreateBucketConfiguration>")
            .getBytes(StandardCharsets.UTF_8);
    send("CreateBucket", "PUT", bucket, "", null, body);
  }

  public void deleteBucket(String bucket) {
    send("DeleteBucket", "DELETE", bucket, "", null, null);
  }

  public void putObject(String bucket, String key, byte[] content) {
    send("PutObject", "PUT", bucket, key, null, content);
  }

  public void putObject(String bucket, String key, String content) {
    putObject(bucket, key, content.getBytes(StandardCharsets.UTF_8));
  }

  public byte[] getObject(String bucket, String key) {
    return send("GetObject", "GET", bucket, key, null, null);
  }

  public String getObjectAsString(String bucket, String key) {
    return new String(getObject(bucket, key), StandardCharsets.UTF_8);
  }

  public void deleteObject(String bucket, String key) {
    send("DeleteObject", "DELETE", bucket, key, null, null);
  }

  /** Deletes the keys one request each (no Content-MD5 needed, works on every store). */
  public void deleteObjects(String bucket, List<String> keys) {
    for (String k : keys) {
      deleteObject(bucket, k);
    }
  }

  /**
   * Deletes the keys in one DeleteObjects request ({@code POST ?delete}, with its Content-MD5).
   *
   * @return the keys the store refused, as {@code key (code)}; empty when all were deleted
   */
  public List<String> deleteObjectsInOneRequest(String bucket, List<String> keys) {
    StringBuilder xml = new StringBuilder("<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    for (String k : keys) {
      xml.append("<Object><Key>").append(k.replace("&", "&amp;").replace("<", "&lt;")).append("</Key></Object>");
    }
    byte[] body = xml.append("</Delete>").toString().getBytes(StandardCharsets.UTF_8);
    Element root = parse(utf8(send("DeleteObjects", "POST", bucket, "", "delete=", body,
        Map.of("Content-MD5", md5(body)))));
    List<String> refused = new ArrayList<>();
    NodeList errors = root.getElementsByTagName("Error");
    for (int i = 0; i < errors.getLength(); i++) {
      Element e = (Element) errors.item(i);
      refused.add(text(e, "Key") + " (" + text(e, "Code") + ")");
    }
    return refused;
  }

  /** Keys under {@code prefix}, in the store's order (sorted), following continuation tokens. */
  public List<String> listKeys(String bucket, String prefix) {
    return listKeys(bucket, prefix, 1000);
  }

  /** As {@link #listKeys(String, String)}, asking for at most {@code pageSize} keys a request. */
  List<String> listKeys(String bucket, String prefix, int pageSize) {
    return new ArrayList<>(list(bucket, prefix, pageSize).keySet());
  }

  /** Keys under {@code prefix} with their ETags (as S3 sends them, quotes removed), in key order. */
  public Map<String, String> listETags(String bucket, String prefix) {
    return list(bucket, prefix, 1000);
  }

  private Map<String, String> list(String bucket, String prefix, int pageSize) {
    Map<String, String> entries = new LinkedHashMap<>();
    String token = null;
    ListPage page;
    do {
      String query = "list-type=2&max-keys=" + pageSize + "&prefix=" + SigV4Signer.encode(prefix, false)
          + (token == null ? "" : "&continuation-token=" + SigV4Signer.encode(token, false));
      page = parseListPage(utf8(send("ListObjectsV2", "GET", bucket, "", query, null)));
      for (int i = 0; i < page.keys().size(); i++) {
        entries.put(page.keys().get(i), page.etags().get(i));
      }
      token = page.nextToken();
    } while (page.truncated() && token != null);
    return entries;
  }

  /**
   * Turns versioning on for a bucket (PutBucketVersioning, status {@code Enabled}). Once on, it can only be
   * suspended, never turned off: use it on a bucket of the test's own.
   */
  public void enableVersioning(String bucket) {
    byte[] body = ("<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        + "<Status>Enabled</Status></VersioningConfiguration>").getBytes(StandardCharsets.UTF_8);
    send("PutBucketVersioning", "PUT", bucket, "", "versioning=", body, Map.of("Content-MD5", md5(body)));
  }

  /** The bucket's versioning status: {@code Enabled}, {@code Suspended}, or empty for a never-versioned bucket. */
  public String versioningStatus(String bucket) {
    String status = text(parse(utf8(send("GetBucketVersioning", "GET", bucket, "", "versioning=", null))),
        "Status");
    return status == null ? "" : status;
  }

  /**
   * Every version and delete marker under {@code prefix} (ListObjectVersions, following the key and version-id
   * markers), by key, the current entry first within a key, then in the store's order (newest first). LocalStack
   * sends a page's delete markers before its versions; S3 interleaves them by key.
   */
  public List<Version> listVersions(String bucket, String prefix) {
    return listVersions(bucket, prefix, 1000);
  }

  /** As {@link #listVersions(String, String)}, asking for at most {@code pageSize} entries a request. */
  List<Version> listVersions(String bucket, String prefix, int pageSize) {
    List<Version> out = new ArrayList<>();
    String keyMarker = null;
    String versionMarker = null;
    VersionPage page;
    do {
      String query = "max-keys=" + pageSize + "&prefix=" + SigV4Signer.encode(prefix, false)
          + (keyMarker == null ? "" : "&key-marker=" + SigV4Signer.encode(keyMarker, false))
          + (versionMarker == null ? "" : "&version-id-marker=" + SigV4Signer.encode(versionMarker, false))
          + "&versions=";
      page = parseVersionPage(utf8(send("ListObjectVersions", "GET", bucket, "", query, null)));
      List<Version> sorted = new ArrayList<>(page.versions());
      sorted.sort(Comparator.comparing(Version::key).thenComparing(Version::latest, Comparator.reverseOrder()));
      out.addAll(sorted);
      keyMarker = page.nextKeyMarker();
      versionMarker = page.nextVersionIdMarker();
    } while (page.truncated() && keyMarker != null);
    return out;
  }

  /** Starts a multipart upload and returns its id. */
  public String initiateMultipartUpload(String bucket, String key) {
    return parseUploadId(utf8(send("CreateMultipartUpload", "POST", bucket, key, "uploads=", null)));
  }

  /** Incomplete multipart uploads under {@code prefix} (first page: up to 1,000). */
  public List<Upload> listMultipartUploads(String bucket, String prefix) {
    return parseUploads(utf8(send("ListMultipartUploads", "GET", bucket, "",
        "prefix=" + SigV4Signer.encode(prefix, false) + "&uploads=", null)));
  }

  public void abortMultipartUpload(String bucket, String key, String uploadId) {
    send("AbortMultipartUpload", "DELETE", bucket, key, "uploadId=" + SigV4Signer.encode(uploadId, false), null);
  }

  private byte[] send(String operation, String method, String bucket, String key, String query, byte[] body) {
    return send(operation, method, bucket, key, query, body, Map.of());
  }

  private byte[] send(String operation, String method, String bucket, String key, String query, byte[] body,
      Map<String, String> headers) {
    URI uri = uri(bucket, key, query);
    byte[] payload = body == null ? new byte[0] : body;
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(TIMEOUT)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(payload));
    for (Map.Entry<String, String> h : signer.headers(method, uri, ZonedDateTime.now(), sha256(payload)).entrySet()) {
      b.header(h.getKey(), h.getValue());
    }
    headers.forEach(b::header); // unsigned: SigV4 signs only the headers the signer names
    HttpResponse<byte[]> r;
    try {
      r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new PlainS3Exception(operation, bucket, key, -1, null, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PlainS3Exception(operation, bucket, key, -1, null, e);
    }
    if (r.statusCode() / 100 != 2) {
      throw new PlainS3Exception(operation, bucket, key, r.statusCode(), errorCode(utf8(r.body())), null);
    }
    return r.body();
  }

  private URI uri(String bucket, String key, String query) {
    URI base = endpoint.uri();
    String authority = base.getRawAuthority();
    String path = "/" + SigV4Signer.encode(key, true);
    if (endpoint.pathStyle()) {
      path = "/" + bucket + path;
    } else {
      authority = bucket + "." + authority;
    }
    return URI.create(base.getScheme() + "://" + authority + path + (query == null ? "" : "?" + query));
  }

  private static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  private static String md5(byte[] body) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sha256(byte[] b) {
    try {
      return SigV4Signer.hex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static ListPage parseListPage(String xml) {
    Element root = parse(xml);
    List<String> keys = new ArrayList<>();
    List<String> etags = new ArrayList<>();
    NodeList contents = root.getElementsByTagName("Contents");
    for (int i = 0; i < contents.getLength(); i++) {
      keys.add(text((Element) contents.item(i), "Key"));
      String etag = text((Element) contents.item(i), "ETag");
      etags.add(etag == null ? null : etag.replace("\"", ""));
    }
    return new ListPage(keys, etags, "true".equals(text(root, "IsTruncated")),
        text(root, "NextContinuationToken"));
  }

  static VersionPage parseVersionPage(String xml) {
    Element root = parse(xml);
    List<Version> versions = new ArrayList<>();
    NodeList children = root.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      if (!(children.item(i) instanceof Element)) {
        continue;
      }
      Element e = (Element) children.item(i);
      boolean marker = e.getTagName().equals("DeleteMarker");
      if (marker || e.getTagName().equals("Version")) {
        String size = text(e, "Size");
        versions.add(new Version(text(e, "Key"), text(e, "VersionId"), "true".equals(text(e, "IsLatest")), marker,
            size == null ? 0 : Long.parseLong(size)));
      }
    }
    return new VersionPage(versions, "true".equals(text(root, "IsTruncated")), text(root, "NextKeyMarker"),
        text(root, "NextVersionIdMarker"));
  }

  static String parseUploadId(String xml) {
    String id = text(parse(xml), "UploadId");
    if (id == null) {
      throw new IllegalArgumentException("no UploadId in " + xml);
    }
    return id;
  }

  static List<Upload> parseUploads(String xml) {
    List<Upload> out = new ArrayList<>();
    NodeList uploads = parse(xml).getElementsByTagName("Upload");
    for (int i = 0; i < uploads.getLength(); i++) {
      Element u = (Element) uploads.item(i);
      out.add(new Upload(text(u, "Key"), text(u, "UploadId")));
    }
    return out;
  }

  /** The {@code Code} of an S3 error document, or null when the body is not one (a HEAD, an empty 404). */
  static String errorCode(String xml) {
    if (xml == null || xml.isBlank()) {
      return null;
    }
    try {
      return text(parse(xml), "Code");
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Element parse(String xml) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
      return d.getDocumentElement();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalArgumentException("not an S3 XML answer: " + e.getMessage(), e);
    }
  }

  /** Text of the first descendant named {@code tag} (the root's own when the root has that name), or null. */
  private static String text(Element scope, String tag) {
    if (scope.getTagName().equals(tag)) {
      return scope.getTextContent();
    }
    NodeList n = scope.getElementsByTagName(tag);
    return n.getLength() == 0 ? null : n.item(0).getTextContent();
  }

  @Override
  public String toString() {
    return "PlainS3 " + endpoint;
  }
}
