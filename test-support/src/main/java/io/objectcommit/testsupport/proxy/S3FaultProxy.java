package io.objectcommit.testsupport.proxy;

import io.objectcommit.testsupport.S3Endpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP proxy between S3 clients and an S3 endpoint (LocalStack in the tests) that injects the faults of a
 * {@link FaultPlan}, counts requests by {@link S3Operation} and status, and keeps each request with its status and
 * {@code Referer} header ({@link #requests()}: what a server access log would record). It listens on 127.0.0.1, forwards
 * every request byte for byte (streamed bodies, chunked or not, {@code Expect: 100-continue} answered by the
 * proxy), path-style addressing only.
 *
 * <pre>{@code
 * try (S3FaultProxy proxy = S3FaultProxy.start(endpoint)) {
 *   proxy.setFaults(FaultPlan.builder(42).listingInconsistency(Duration.ofSeconds(3)).build());
 *   Map<String, String> s3a = proxy.endpoint().s3aOptions();   // or proxy.endpoint().newClient()
 *   ... run the code under test ...
 *   assertEquals(3, proxy.counts().of(S3Operation.COPY));
 * }
 * }</pre>
 *
 * <p>The proxy remembers writes, deletes and 404s it forwarded (whatever the plan) so that a plan installed later
 * can act on recent history; {@link #forgetHistory()} clears that memory.
 */
public final class S3FaultProxy implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(S3FaultProxy.class);
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final S3Endpoint upstream;
  private final InetSocketAddress upstreamAddress;
  private final ServerSocket server;
  private final ExecutorService workers;
  private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
  private final ConsistencyState state;
  private final UpstreamProbe probe;
  private final ListingRewriter rewriter;
  private final RequestCounter counter = new RequestCounter();
  private final AtomicLong requestIds = new AtomicLong();
  private final AtomicInteger peakConnections = new AtomicInteger();
  private final LongAdder bytesToClients = new LongAdder();
  private final LongAdder bytesFromClients = new LongAdder();
  private final Thread acceptor;
  private volatile FaultInjector injector = new FaultInjector(FaultPlan.none());
  private volatile boolean closed;

  private S3FaultProxy(S3Endpoint upstream, LongSupplier clock) throws IOException {
    this.upstream = Objects.requireNonNull(upstream, "upstream");
    if (!"http".equalsIgnoreCase(upstream.uri().getScheme())) {
      throw new IllegalArgumentException("the proxy forwards plain http only: " + upstream.uri());
    }
    int port = upstream.uri().getPort() < 0 ? 80 : upstream.uri().getPort();
    this.upstreamAddress = new InetSocketAddress(upstream.uri().getHost(), port);
    this.state = new ConsistencyState(clock);
    this.probe = new UpstreamProbe(upstream.uri(),
        new SigV4Signer(upstream.accessKey(), upstream.secretKey(), upstream.region()));
    this.rewriter = new ListingRewriter(state, probe);
    this.server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    int id = INSTANCES.incrementAndGet();
    AtomicInteger threads = new AtomicInteger();
    this.workers = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "s3-proxy-" + id + "-conn-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.acceptor = new Thread(this::acceptLoop, "s3-proxy-" + id + "-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    LOG.info("S3 fault proxy listening on 127.0.0.1:{}, forwarding to {}", server.getLocalPort(), upstream.uri());
  }

  /** Starts a proxy in front of {@code upstream} (plain http), with the system clock. */
  public static S3FaultProxy start(S3Endpoint upstream) {
    return start(upstream, System::currentTimeMillis);
  }

  /** Starts a proxy whose time windows are measured on {@code clockMillis}. */
  public static S3FaultProxy start(S3Endpoint upstream, LongSupplier clockMillis) {
    try {
      return new S3FaultProxy(upstream, clockMillis);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the S3 fault proxy in front of " + upstream.uri(), e);
    }
  }

  /** The upstream endpoint as seen through the proxy (path-style, same region and credentials). */
  public S3Endpoint endpoint() {
    return new S3Endpoint(upstream.kind(), "http://127.0.0.1:" + port(), upstream.region(), upstream.accessKey(),
        upstream.secretKey(), true);
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Installs a fault plan; requests already being served finish under the plan they started with. */
  public void setFaults(FaultPlan plan) {
    injector = new FaultInjector(Objects.requireNonNull(plan, "plan"));
    LOG.info("S3 fault proxy on port {}: {}", port(), plan);
  }

  public FaultPlan faults() {
    return injector.plan();
  }

  /** A snapshot of the requests answered since start or the last {@link #resetCounts()}. */
  public RequestCounts counts() {
    return counter.snapshot();
  }

  /**
   * The requests answered since start or the last {@link #resetCounts()}, in order, each with its status and its
   * {@code Referer} header (at most {@link RequestCounter#MAX_KEPT}; {@link #droppedRequests()} says how many more
   * were only counted).
   */
  public List<SeenRequest> requests() {
    return counter.seen();
  }

  /** Requests counted since the last reset but not kept in {@link #requests()}. */
  public long droppedRequests() {
    return counter.dropped();
  }

  /**
   * The counts since start or the last reset, and a reset, atomically: a long run's per-interval counts without
   * keeping every request (what {@link #requests()} keeps grows the heap up to {@link RequestCounter#MAX_KEPT}).
   */
  public RequestCounts countsAndReset() {
    return counter.snapshotAndReset();
  }

  /** Clears the counts and the requests kept. */
  public void resetCounts() {
    counter.reset();
  }

  /**
   * How often each error rule of the current plan fired since it was installed, in the plan's order (a rule
   * that never fired maps to 0).
   */
  public Map<ErrorRule, Long> injectedErrors() {
    FaultInjector current = injector;
    List<ErrorRule> rules = current.plan().errors();
    long[] fired = current.firedCounts();
    Map<ErrorRule, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < rules.size(); i++) {
      m.merge(rules.get(i), fired[i], Long::sum);
    }
    return Collections.unmodifiableMap(m);
  }

  /** Client connections open now. */
  public int openConnections() {
    return clients.size();
  }

  /** The most client connections open at once since start or the last {@link #resetPeakConnections()}. */
  public int peakConnections() {
    return peakConnections.get();
  }

  /**
   * Bytes sent to clients since start or the last {@link #resetBytes()}: everything on the wire, HTTP heads
   * included (a few hundred bytes per request), so a read's bytes are its GETs' bodies plus that much.
   */
  public long bytesToClients() {
    return bytesToClients.sum();
  }

  /** Bytes received from clients since start or the last {@link #resetBytes()}, heads included. */
  public long bytesFromClients() {
    return bytesFromClients.sum();
  }

  public void resetBytes() {
    bytesToClients.reset();
    bytesFromClients.reset();
  }

  public void resetPeakConnections() {
    peakConnections.set(clients.size());
  }

  /** Requests the proxy sent on its own (to fetch a replaced version, and so on); never in {@link #counts()}. */
  public long internalRequests() {
    return probe.requests();
  }

  /** Forgets the remembered writes, deletes and 404s: faults then only concern what happens from now on. */
  public void forgetHistory() {
    state.clear();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      LOG.warn("closing the proxy's server socket: {}", e.toString());
    }
    for (Socket s : clients) {
      try {
        s.close();
      } catch (IOException e) {
        LOG.debug("closing a client connection: {}", e.toString());
      }
    }
    workers.shutdownNow();
    LOG.info("S3 fault proxy on port {} stopped; it answered {}", port(), counts());
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket s = server.accept();
        clients.add(s);
        peakConnections.accumulateAndGet(clients.size(), Math::max);
        workers.execute(new ProxyConnection(s, this));
      } catch (SocketException e) {
        if (!closed) {
          LOG.error("S3 fault proxy stopped accepting connections", e);
        }
        return;
      } catch (IOException e) {
        LOG.warn("S3 fault proxy: accept failed: {}", e.toString());
      }
    }
  }

  boolean isClosed() {
    return closed;
  }

  void connectionEnded(Socket s) {
    clients.remove(s);
  }

  FaultInjector injector() {
    return injector;
  }

  ConsistencyState state() {
    return state;
  }

  UpstreamProbe probe() {
    return probe;
  }

  ListingRewriter rewriter() {
    return rewriter;
  }

  /** The pacers of a new client connection: to the client and from it. */
  Pacer[] pacers() {
    LongSupplier rate = () -> injector.plan().bandwidthBytesPerSecond();
    return new Pacer[] {new Pacer(rate, bytesToClients), new Pacer(rate, bytesFromClients)};
  }

  RequestCounter counter() {
    return counter;
  }

  InetSocketAddress upstreamAddress() {
    return upstreamAddress;
  }

  String nextRequestId() {
    return "OCPROXY" + requestIds.incrementAndGet();
  }
}
