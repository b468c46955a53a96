package io.objectcommit.testsupport;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** Endpoints that fail as users' endpoints fail, for tests of error messages: nothing listening, refused keys. */
public final class StubEndpoints {

  private StubEndpoints() {
  }

  /** {@code http://127.0.0.1:<port>} of a loopback port nothing listens on (connections are refused). */
  public static String closedLoopbackUrl() throws IOException {
    return "http://127.0.0.1:" + SupervisedServer.freePort();
  }

  /** Starts an S3 stand-in on loopback that refuses every request as S3 refuses an unknown access key. */
  public static RefusingS3 refusingCredentials() throws IOException {
    return new RefusingS3();
  }

  /** Answers every request with 403 {@code InvalidAccessKeyId} (request id {@code stub}); close to stop it. */
  public static final class RefusingS3 implements AutoCloseable {

    private static final byte[] BODY = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>InvalidAccessKeyId"
        + "</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message>"
        + "<RequestId>stub</RequestId></Error>").getBytes(StandardCharsets.UTF_8);

    private final HttpServer server;

    private RefusingS3() throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/", x -> {
        boolean head = "HEAD".equals(x.getRequestMethod());
        x.getRequestBody().readAllBytes();
        x.getResponseHeaders().set("Content-Type", "application/xml");
        x.sendResponseHeaders(403, head ? -1 : BODY.length);
        if (!head) {
          x.getResponseBody().write(BODY);
        }
        x.close();
      });
      server.start();
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
