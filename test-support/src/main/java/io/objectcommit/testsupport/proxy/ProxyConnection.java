package io.objectcommit.testsupport.proxy;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Serves one client connection: reads requests one after another (keep-alive), applies the fault plan, forwards
 * each to the store on a fresh upstream connection and relays the answer.
 */
final class ProxyConnection implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(ProxyConnection.class);
  private static final int UPSTREAM_CONNECT_TIMEOUT_MS = 10_000;

  private final Socket client;
  private final S3FaultProxy proxy;

  ProxyConnection(Socket client, S3FaultProxy proxy) {
    this.client = client;
    this.proxy = proxy;
  }

  @Override
  public void run() {
    try (Socket c = client) {
      c.setTcpNoDelay(true);
      Pacer[] pacers = proxy.pacers();
      OutputStream out = new BufferedOutputStream(pacers[0].wrap(c.getOutputStream()), 64 * 1024);
      HttpInput in = new HttpInput(pacers[1].wrap(c.getInputStream()), 64 * 1024);
      while (!proxy.isClosed() && serveOne(in, out)) {
        // next request on the same connection
      }
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
      LOG.debug("proxy connection interrupted", e);
    } catch (IOException e) {
      // Clients close idle connections and abandon aborted streams: routine for a proxy.
      LOG.debug("proxy connection ended: {}", e.toString());
    } finally {
      proxy.connectionEnded(client);
    }
  }

  /** Serves one request; false when the connection must be closed afterwards. */
  private boolean serveOne(HttpInput in, OutputStream out) throws IOException {
    HttpHead req = HttpWire.readHead(in);
    if (req == null) {
      return false;
    }
    S3Request s3 = S3Request.classify(req.method(), req.target(), req.get("x-amz-copy-source"));
    FaultInjector faults = proxy.injector();
    FaultPlan plan = faults.plan();
    ConsistencyState state = proxy.state();
    FaultInjector.Decision decision = faults.decide(s3);
    sleep(decision.latencyMs);
    boolean expectContinue = "100-continue".equalsIgnoreCase(req.get("Expect"));
    boolean clientClose = req.wantsClose();

    ErrorRule error = decision.error;
    if (error != null && !error.isAfterUpstream()) {
      if (!expectContinue) {
        HttpWire.readBody(in, req, false);
      }
      LOG.info("proxy: injecting {} instead of {}", error.kind(), s3);
      sendError(error.kind(), s3, req, out);
      return false;
    }

    String path = s3.path();
    S3Operation op = s3.operation();
    if (op == S3Operation.GET || op == S3Operation.HEAD) {
      if (state.negativelyCached(path, plan)) {
        LOG.debug("proxy: negative-cached 404 for {}", s3);
        proxy.counter().record(s3, 404, req.get("Referer"), req.get("User-Agent"), req.get("Range"));
        sendNotFound(s3, out, clientClose);
        return !clientClose;
      }
      Optional<StoredObject> stale = state.staleVersion(path, plan);
      if (stale.isPresent()) {
        LOG.debug("proxy: stale version for {}", s3);
        int status = StaleResponse.send(stale.get(), op == S3Operation.HEAD, req.get("Range"), clientClose, out);
        proxy.counter().record(s3, status, req.get("Referer"), req.get("User-Agent"), req.get("Range"));
        return !clientClose;
      }
    }

    StoredObject previous = null;
    if (op.writesObject() && plan.staleReadMs() > 0) {
      previous = proxy.probe().get(s3.bucket(), s3.key()).orElse(null);
    }
    ListingEntry deletedEntry = null;
    if (op == S3Operation.DELETE && plan.listingShowDeletedMs() > 0) {
      deletedEntry = proxy.probe().head(s3.bucket(), s3.key()).orElse(null);
    }
    if (expectContinue) {
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      req.remove("Expect");
    }
    byte[] buffered = null;
    Map<String, ListingEntry> bulkEntries = new HashMap<>();
    if (op == S3Operation.BULK_DELETE) {
      buffered = HttpWire.readBody(in, req, false);
      req.remove("Transfer-Encoding");
      req.set("Content-Length", Integer.toString(buffered.length));
      if (plan.listingShowDeletedMs() > 0) {
        for (String key : BulkDelete.requestedKeys(buffered)) {
          proxy.probe().head(s3.bucket(), key).ifPresent(e -> bulkEntries.put(key, e));
        }
      }
    }

    if (plan.conditionsDropped().contains(op) && (req.get("If-None-Match") != null || req.get("If-Match") != null)) {
      LOG.debug("proxy: dropping the conditions of {}", s3);
      req.remove("If-None-Match");
      req.remove("If-Match");
    }
    try (Socket up = new Socket()) {
      up.connect(proxy.upstreamAddress(), UPSTREAM_CONNECT_TIMEOUT_MS);
      up.setTcpNoDelay(true);
      HttpInput uin = new HttpInput(up.getInputStream(), 64 * 1024);
      OutputStream uout = new BufferedOutputStream(up.getOutputStream(), 64 * 1024);
      req.set("Connection", "close");
      req.remove("Keep-Alive");
      req.writeTo(uout);
      if (op == S3Operation.PUT && plan.uploadStallMs() > 0 && (req.isChunked() || req.contentLength() > 0)) {
        uout.flush();
        sleep(plan.uploadStallMs());
      }
      if (buffered != null) {
        uout.write(buffered);
      } else if (req.isChunked()) {
        HttpWire.copyChunked(in, uout);
      } else if (req.contentLength() > 0) {
        HttpWire.copyExactly(in, uout, req.contentLength());
      }
      uout.flush();

      HttpHead resp = HttpWire.readHead(uin);
      while (resp != null && resp.status() / 100 == 1) {
        resp = HttpWire.readHead(uin);
      }
      if (resp == null) {
        throw new IOException("the store closed the connection without answering " + s3);
      }
      int status = resp.status();
      boolean noBody = op == S3Operation.HEAD || "HEAD".equals(s3.method()) || status == 204 || status == 304;
      byte[] body = null;
      boolean rewriteListing = op == S3Operation.LIST && status == 200 && plan.listingInconsistent();
      if (error != null || rewriteListing || (op == S3Operation.BULK_DELETE && status == 200)) {
        body = noBody ? new byte[0] : HttpWire.readBody(uin, resp, true);
      }
      recordEffects(s3, status, previous, deletedEntry, bulkEntries, body, state);
      if (error != null) {
        LOG.info("proxy: {} was applied ({}); answering {} instead", s3, status, error.kind());
        sendError(error.kind(), s3, req, out);
        return false;
      }
      if (rewriteListing) {
        body = proxy.rewriter().rewrite(s3, body, plan);
      }
      resp.remove("Connection");
      resp.remove("Keep-Alive");
      boolean closeDelimited = body == null && !noBody && !resp.isChunked() && resp.contentLength() < 0;
      boolean close = clientClose || closeDelimited;
      if (close) {
        resp.set("Connection", "close");
      }
      // Counted before the client sees the response: a test reading the counts right after its request
      // returned must find it.
      proxy.counter().record(s3, status, req.get("Referer"), req.get("User-Agent"), req.get("Range"));
      LOG.debug("proxy: {} {} ({}) -> {}", s3.method(), s3.path(), op, status);
      if (body != null) {
        resp.remove("Transfer-Encoding");
        if (!noBody) {
          resp.set("Content-Length", Integer.toString(body.length));
        }
        resp.writeTo(out);
        out.write(body);
      } else {
        resp.writeTo(out);
        if (!noBody) {
          if (resp.isChunked()) {
            HttpWire.copyChunked(uin, out);
          } else if (resp.contentLength() >= 0) {
            HttpWire.copyExactly(uin, out, resp.contentLength());
          } else {
            HttpWire.copyToEnd(uin, out);
          }
        }
      }
      out.flush();
      return !close;
    }
  }

  private static void recordEffects(S3Request s3, int status, StoredObject previous, ListingEntry deletedEntry,
      Map<String, ListingEntry> bulkEntries, byte[] body, ConsistencyState state) throws IOException {
    S3Operation op = s3.operation();
    boolean ok = status / 100 == 2;
    if (op.writesObject() && ok) {
      state.recordWrite(s3.path(), previous);
    } else if (op == S3Operation.DELETE && ok) {
      state.recordDelete(s3.path(), deletedEntry);
    } else if (op == S3Operation.BULK_DELETE && ok && body != null) {
      for (String key : BulkDelete.deletedKeys(body)) {
        state.recordDelete(s3.bucket() + "/" + key, bulkEntries.get(key));
      }
    } else if ((op == S3Operation.GET || op == S3Operation.HEAD) && status == 404) {
      state.recordMissing(s3.path());
    }
  }

  private void sendError(ErrorKind kind, S3Request s3, HttpHead req, OutputStream out) throws IOException {
    proxy.counter().record(s3, kind.status(), req.get("Referer"), req.get("User-Agent"), req.get("Range"));
    if (kind == ErrorKind.RESET) {
      client.setSoLinger(true, 0);
      client.close();
      return;
    }
    String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + kind.code() + "</Code><Message>"
        + kind.message() + "</Message><Resource>/" + escape(s3.path()) + "</Resource><RequestId>"
        + proxy.nextRequestId() + "</RequestId></Error>";
    String reason = kind.status() == 503 ? "Service Unavailable"
        : kind.status() == 403 ? "Forbidden" : "Internal Server Error";
    sendXml(out, kind.status(), reason, xml, "HEAD".equals(s3.method()), true);
  }

  private void sendNotFound(S3Request s3, OutputStream out, boolean close) throws IOException {
    String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code><Message>The specified "
        + "key does not exist.</Message><Key>" + escape(s3.key()) + "</Key><RequestId>" + proxy.nextRequestId()
        + "</RequestId></Error>";
    sendXml(out, 404, "Not Found", xml, "HEAD".equals(s3.method()), close);
  }

  private static void sendXml(OutputStream out, int status, String reason, String xml, boolean head, boolean close)
      throws IOException {
    byte[] body = xml.getBytes(StandardCharsets.UTF_8);
    HttpHead h = new HttpHead("HTTP/1.1 " + status + " " + reason);
    h.add("Content-Type", "application/xml");
    h.add("Content-Length", head ? "0" : Integer.toString(body.length));
    if (close) {
      h.add("Connection", "close");
    }
    h.writeTo(out);
    if (!head) {
      out.write(body);
    }
    out.flush();
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static void sleep(long ms) throws InterruptedIOException {
    if (ms <= 0) {
      return;
    }
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during injected latency");
    }
  }

  /** Reading the XML of DeleteObjects requests and responses. */
  static final class BulkDelete {
    private BulkDelete() {
    }

    /** Keys named in a {@code <Delete>} request body. */
    static List<String> requestedKeys(byte[] body) throws IOException {
      return keysIn(body, "Object");
    }

    /** Keys reported in {@code <Deleted>} elements of a {@code <DeleteResult>}. */
    static List<String> deletedKeys(byte[] body) throws IOException {
      return keysIn(body, "Deleted");
    }

    private static List<String> keysIn(byte[] body, String element) throws IOException {
      List<String> keys = new ArrayList<>();
      Element root = ListingRewriter.parse(body).getDocumentElement();
      for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n instanceof Element && element.equals(n.getLocalName())) {
          String key = ListingRewriter.childText((Element) n, "Key");
          if (key != null) {
            keys.add(key);
          }
        }
      }
      return keys;
    }
  }
}
