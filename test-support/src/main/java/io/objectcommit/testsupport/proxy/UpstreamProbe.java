package io.objectcommit.testsupport.proxy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The proxy's own requests to the store, made to learn what a client request is about to change: the version an
 * overwrite replaces, how a key about to be deleted was listed, which keys exist under a prefix. Signed with the
 * endpoint's credentials (SigV4), so that stores that check signatures answer them too; not counted in
 * {@link RequestCounts}.
 */
final class UpstreamProbe implements ListingRewriter.PrefixProbe {

  private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'",
      Locale.ROOT);

  private final URI upstream;
  private final SigV4Signer signer;
  private final HttpClient http;
  private final AtomicLong requests = new AtomicLong();

  UpstreamProbe(URI upstream, SigV4Signer signer) {
    this.upstream = upstream;
    this.signer = signer;
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
  }

  long requests() {
    return requests.get();
  }

  /** The whole object, or empty if it does not exist. */
  Optional<StoredObject> get(String bucket, String key) throws IOException {
    HttpResponse<byte[]> r = send(signed(objectUri(bucket, key), "GET"));
    if (r.statusCode() == 404) {
      return Optional.empty();
    }
    expectOk(r, "GET", bucket, key);
    Map<String, String> headers = new LinkedHashMap<>();
    r.headers().map().forEach((name, values) -> {
      String n = name.toLowerCase(Locale.ROOT);
      if (n.equals("content-type") || n.equals("etag") || n.equals("last-modified") || n.startsWith("x-amz-meta-")
          || n.equals("content-encoding") || n.equals("cache-control") || n.equals("content-disposition")) {
        headers.put(n, values.get(0));
      }
    });
    return Optional.of(new StoredObject(r.body(), headers));
  }

  /** How the key would be listed, or empty if it does not exist. */
  Optional<ListingEntry> head(String bucket, String key) throws IOException {
    HttpResponse<byte[]> r = send(signed(objectUri(bucket, key), "HEAD"));
    if (r.statusCode() == 404) {
      return Optional.empty();
    }
    expectOk(r, "HEAD", bucket, key);
    long size = Long.parseLong(r.headers().firstValue("content-length").orElse("0"));
    String etag = r.headers().firstValue("etag").orElse("\"\"");
    String lastModified = r.headers().firstValue("last-modified")
        .map(v -> ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).withZoneSameInstant(ZoneOffset.UTC))
        .orElse(ZonedDateTime.now(ZoneOffset.UTC)).format(ISO);
    return Optional.of(new ListingEntry(key, size, etag, lastModified));
  }

  @Override
  public List<String> keysUnder(String bucket, String keyPrefix) throws IOException {
    URI uri = URI.create(upstream + "/" + encodePath(bucket) + "?list-type=2&max-keys=1000&prefix="
        + SigV4Signer.encode(keyPrefix, false));
    HttpResponse<byte[]> r = send(signed(uri, "GET"));
    expectOk(r, "LIST", bucket, keyPrefix);
    Document doc = ListingRewriter.parse(r.body());
    Element root = doc.getDocumentElement();
    if ("true".equals(ListingRewriter.childText(root, "IsTruncated"))) {
      return null;
    }
    List<String> keys = new ArrayList<>();
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && "Contents".equals(n.getLocalName())) {
        keys.add(ListingRewriter.childText((Element) n, "Key"));
      }
    }
    return keys;
  }

  private URI objectUri(String bucket, String key) {
    return URI.create(upstream + "/" + encodePath(bucket) + "/" + encodePath(key));
  }

  private static String encodePath(String s) {
    return SigV4Signer.encode(s, true);
  }

  private HttpRequest signed(URI uri, String method) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody());
    signer.headers(method, uri, ZonedDateTime.now(ZoneOffset.UTC)).forEach(b::header);
    return b.build();
  }

  private HttpResponse<byte[]> send(HttpRequest request) throws IOException {
    requests.incrementAndGet();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while asking the store: " + request.uri());
    }
  }

  private static void expectOk(HttpResponse<byte[]> r, String what, String bucket, String key) throws IOException {
    if (r.statusCode() / 100 != 2) {
      throw new IOException("proxy's own " + what + " of " + bucket + "/" + key + " answered " + r.statusCode()
          + ": " + new String(r.body(), StandardCharsets.UTF_8));
    }
  }
}
