package io.objectcommit.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An S3 server other than LocalStack (moto, S3Proxy, S3Mock) as a local process on a free 127.0.0.1 port.
 *
 * <p>moto is installed into a cached virtualenv by {@code tools/stores/store-host}; the Java servers' jars are
 * resolved by Maven into the local repository (test-support's build copies them, which downloads them). Every
 * server runs under {@code tools/supervise.py} (through {@link SupervisedServer}, shared with
 * {@link LocalStackHost}), which stops it when this JVM exits, even when the JVM is killed. S3Mock binds its plain-HTTP connector on every interface whatever it is told, so it runs in a private
 * network namespace and the supervisor forwards 127.0.0.1:port into it. Logs stay in the instance directory
 * under {@code target/}.
 */
public final class StoreHost extends SupervisedHost {

  private static final Logger LOG = LoggerFactory.getLogger(StoreHost.class);
  private static final String RESOURCE_DIR = "stores/";
  private static final List<String> SCRIPTS = List.of("store-host", "moto-iam.py", "moto-serial.py");
  static final Duration PROVISION_TIMEOUT = Duration.ofMinutes(10);
  static final Duration START_TIMEOUT = Duration.ofSeconds(180);
  /** Credentials the harness configures on the servers that check signatures. */
  static final String ACCESS_KEY = "objectcommit-test";
  static final String SECRET_KEY = "objectcommit-test-secret";
  private static final int S3MOCK_INNER_PORT = 9090;

  private final S3Store store;

  private StoreHost(S3Store store, SupervisedServer server, String scheme) {
    super(server, S3Endpoint.Kind.STORE, scheme, ACCESS_KEY, SECRET_KEY);
    this.store = store;
  }

  /** How a server is started: plain or serialized moto, over HTTP or TLS, with environment added. */
  private record Launch(boolean serialized, boolean tls, Map<String, String> env) {
    static final Launch PLAIN = new Launch(false, false, Map.of());
  }

  /** Starts the store and waits until it answers S3 requests. */
  public static StoreHost start(S3Store store, Path workDir) throws IOException {
    return start(store, workDir, Launch.PLAIN);
  }

  /**
   * moto answering one request at a time ({@code tools/stores/moto-serial.py}): no race of the store guarantee
   * check can be lost on it (moto loses one now and then), for tests about something else ({@link MotoIam}).
   */
  static StoreHost startSerializedMoto(Path workDir) throws IOException {
    return start(S3Store.MOTO, workDir, new Launch(true, false, Map.of()));
  }

  /**
   * moto over TLS ({@code moto_server -s}: a self-signed certificate of its own, which clients must not check), with
   * {@code env} added to its environment: for {@link MotoDynamoDb}, whose client always speaks HTTPS.
   */
  static StoreHost startMotoOverTls(Path workDir, Map<String, String> env) throws IOException {
    return start(S3Store.MOTO, workDir, new Launch(false, true, env));
  }

  private static StoreHost start(S3Store store, Path workDir, Launch how) throws IOException {
    if (store == S3Store.LOCALSTACK || store == S3Store.EXTERNAL) {
      throw new IllegalArgumentException(store + " is not started by StoreHost");
    }
    Files.createDirectories(workDir);
    Path scripts = SupervisedServer.extractScripts(workDir.resolve("store-scripts"), RESOURCE_DIR, SCRIPTS);
    IOException last = null;
    for (int attempt = 1; attempt <= 3; attempt++) { // a free port can be taken between probe and bind
      int port = SupervisedServer.freePort();
      Path instanceDir = workDir.resolve(store.id() + "-" + port + "-" + System.currentTimeMillis());
      Files.createDirectories(instanceDir);
      List<String> command = command(store, scripts, instanceDir, port);
      if (how.serialized()) {
        command.set(0, Path.of(command.get(0)).resolveSibling("python").toString());
        command.add(1, scripts.resolve("moto-serial.py").toString());
      }
      if (how.tls()) {
        command.add("-s");
      }
      try {
        return launch(store, scripts, command, instanceDir, port, how);
      } catch (IOException e) {
        last = e;
        LOG.warn("{} attempt {} on port {} failed: {}", store.description(), attempt, port, e.getMessage());
      }
    }
    throw last;
  }

  private static List<String> command(S3Store store, Path scripts, Path dir, int port) throws IOException {
    List<String> c = new ArrayList<>();
    switch (store) {
      case MOTO:
      case MOTO_OLD:
        c.add(provisionMoto(scripts, store, dir).toString());
        c.addAll(List.of("-H", "127.0.0.1", "-p", Integer.toString(port)));
        return c;
      case S3PROXY:
      case S3PROXY_OLD: {
        Path data = Files.createDirectories(dir.resolve("data"));
        Properties p = new Properties();
        p.setProperty("s3proxy.endpoint", "http://127.0.0.1:" + port);
        p.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        p.setProperty("s3proxy.identity", ACCESS_KEY);
        p.setProperty("s3proxy.credential", SECRET_KEY);
        p.setProperty("jclouds.provider", "filesystem");
        p.setProperty("jclouds.filesystem.basedir", data.toString());
        Path props = dir.resolve("s3proxy.properties");
        try (var out = Files.newOutputStream(props)) {
          p.store(out, "written by io.objectcommit.testsupport.StoreHost");
        }
        c.addAll(javaCommand());
        c.addAll(List.of("-jar", jar(store).toString(), "--properties", props.toString()));
        return c;
      }
      case S3MOCK:
        c.addAll(javaCommand());
        c.addAll(List.of("-jar", jar(store).toString(), "--server.ssl.enabled=false",
            "--server.address=127.0.0.1", "--server.port=" + S3MOCK_INNER_PORT, "--http.port=" + (S3MOCK_INNER_PORT + 1),
            "--com.adobe.testing.s3mock.store.root=" + Files.createDirectories(dir.resolve("data"))));
        return c;
      default:
        throw new IllegalArgumentException(store.toString());
    }
  }

  private static List<String> javaCommand() {
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true");
  }

  /** The server's jar in the local Maven repository (test-support's build downloads it there). */
  static Path jar(S3Store store) throws IOException {
    String rel;
    switch (store) {
      case S3PROXY:
        rel = "org/gaul/s3proxy/" + version("s3proxy.version") + "/s3proxy-" + version("s3proxy.version")
            + "-jar-with-dependencies.jar";
        break;
      case S3PROXY_OLD:
        rel = "org/gaul/s3proxy/" + version("s3proxy.old.version") + "/s3proxy-" + version("s3proxy.old.version")
            + "-jar-with-dependencies.jar";
        break;
      case S3MOCK:
        rel = "com/adobe/testing/s3mock/" + version("s3mock.version") + "/s3mock-" + version("s3mock.version")
            + "-exec.jar";
        break;
      default:
        throw new IllegalArgumentException(store.toString());
    }
    Path repo = Path.of(System.getProperty("maven.repo.local",
        Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
    Path jar = repo.resolve(rel);
    if (!Files.isRegularFile(jar)) {
      throw new IOException(store.description() + ": " + jar + " is missing. Build test-support once"
          + " ('mvn -pl test-support package', which downloads it from Maven Central) or set -Dmaven.repo.local");
    }
    return jar;
  }

  private static String version(String key) throws IOException {
    Properties p = new Properties();
    try (InputStream in = StoreHost.class.getResourceAsStream("versions.properties")) {
      if (in == null) {
        throw new IOException("test-support jar lacks versions.properties");
      }
      p.load(in);
    }
    String v = p.getProperty(key);
    if (v == null || v.startsWith("${")) {
      throw new IOException("versions.properties lacks " + key);
    }
    return v;
  }

  /**
   * The Python of moto's virtualenv (which has boto3), provisioned if needed, and the harness's scripts extracted
   * under {@code workDir}: for {@link MotoIam}'s set-up script.
   *
   * @return the interpreter, and the scripts' directory
   */
  static Path[] motoPythonAndScripts(Path workDir) throws IOException {
    Files.createDirectories(workDir);
    Path scripts = SupervisedServer.extractScripts(workDir.resolve("store-scripts"), RESOURCE_DIR, SCRIPTS);
    Path dir = Files.createDirectories(workDir.resolve("moto-provision-" + System.currentTimeMillis()));
    Path server = provisionMoto(scripts, S3Store.MOTO, dir);
    return new Path[] {server.resolveSibling("python"), scripts};
  }

  private static Path provisionMoto(Path scripts, S3Store store, Path dir) throws IOException {
    SupervisedServer.ScriptResult r = SupervisedServer.runScript(
        List.of("bash", scripts.resolve("store-host").toString(), "provision", store.id()),
        dir.resolve("provision.log"), PROVISION_TIMEOUT, "provisioning " + store.description());
    if (r.exitCode() != 0) {
      throw new IOException("provisioning " + store.description() + " failed (exit " + r.exitCode() + "):\n"
          + SupervisedServer.tail(r.stderr(), 30));
    }
    return r.lastLinePath();
  }

  private static StoreHost launch(S3Store store, Path scripts, List<String> command, Path dir, int port,
      Launch how) throws IOException {
    List<String> supervisorArgs = store == S3Store.S3MOCK
        ? List.of("--netns-forward", port + ":" + S3MOCK_INNER_PORT) : List.of();
    LOG.info("Starting {} on 127.0.0.1:{}, log {}", store.description(), port, dir.resolve("server.log"));
    long t0 = System.nanoTime();
    SupervisedServer server = SupervisedServer.start(store.description(), port, python(), scripts, dir, "server.log",
        "server.pid", supervisorArgs, command, how.env(), "store-host-stop-" + port);
    String scheme = how.tls() ? "https" : "http";
    // any HTTP answer (200, or 403 unsigned) means it serves requests
    server.awaitReady(new URL(scheme + "://127.0.0.1:" + port + "/"), 5000, START_TIMEOUT, c -> {
      if (c instanceof HttpsURLConnection https) {
        trustAnyCertificate(https);
      }
      return c.getResponseCode() > 0 ? Optional.empty() : Optional.of("no HTTP status");
    });
    LOG.info("{} ready on {}://127.0.0.1:{} in {} ms", store.description(), scheme, port,
        (System.nanoTime() - t0) / 1_000_000);
    return new StoreHost(store, server, scheme);
  }

  /** Lets {@code c} talk to a test server on 127.0.0.1 whose certificate is its own (self-signed). */
  static void trustAnyCertificate(HttpsURLConnection c) throws IOException {
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
          return new X509Certificate[0];
        }
      }}, null);
      c.setSSLSocketFactory(tls.getSocketFactory());
      c.setHostnameVerifier((host, session) -> true);
    } catch (GeneralSecurityException e) {
      throw new IOException("no TLS context for a test server", e);
    }
  }

  private static String python() {
    return S3TestSettings.fromEnvironment().get(S3TestSettings.STORE_PYTHON).orElse("python3");
  }

  @Override
  public S3Store store() {
    return store;
  }

  /** The server's own pid (leader of its process group), once the supervisor has started it. */
  public Optional<Long> serverPid() {
    return server.serverPid();
  }
}
