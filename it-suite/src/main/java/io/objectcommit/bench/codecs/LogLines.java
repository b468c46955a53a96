package io.objectcommit.bench.codecs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Deterministic text like an application's log, one record per line, about 100 bytes a line: a timestamp that
 * advances, a level, a thread, a logger and a message from a few templates with numbers, identifiers and addresses
 * drawn from a seeded generator. Such lines compress as real logs do (gzip about 4 to 6 times), unlike random letters
 * (under 2 times) or repeated lines (hundreds of times), which would favour or penalise the codecs unrealistically.
 */
final class LogLines {

  private static final String[] LEVELS = {"INFO ", "INFO ", "INFO ", "INFO ", "DEBUG", "DEBUG", "WARN ", "ERROR"};
  private static final String[] LOGGERS = {"o.a.shop.orders.OrderService", "o.a.shop.cart.CartController",
      "o.a.shop.pay.PaymentGateway", "o.a.shop.search.QueryPlanner", "o.a.shop.auth.SessionFilter",
      "o.a.shop.stock.Inventory", "o.a.http.AccessLog", "o.a.shop.mail.Notifier", "o.a.db.Pool",
      "o.a.shop.ship.Dispatcher"};
  private static final String[] REGIONS = {"eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-south-1"};
  private static final String[] PATHS = {"/api/v2/orders", "/api/v2/cart/items", "/api/v2/search", "/login",
      "/api/v2/payments", "/static/app.js", "/api/v2/stock"};
  private static final String[] STATES = {"created", "paid", "shipped", "cancelled", "delivered"};

  private final SplittableRandom random;
  private long millis = 1_795_000_000_000L;
  private final StringBuilder sb = new StringBuilder(256);

  LogLines(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /**
   * Writes lines to {@code out} until at least {@code bytes} bytes are written (whole lines), and returns the number
   * of lines and of bytes written.
   */
  long[] write(OutputStream out, long bytes) throws IOException {
    long lines = 0;
    long written = 0;
    while (written < bytes) {
      byte[] line = next();
      out.write(line);
      written += line.length;
      lines++;
    }
    return new long[] {lines, written};
  }

  /** The next line, with its newline. */
  byte[] next() {
    sb.setLength(0);
    millis += random.nextInt(40);
    java.time.Instant t = java.time.Instant.ofEpochMilli(millis);
    sb.append(t).append(' ').append(LEVELS[random.nextInt(LEVELS.length)]).append(" [exec-")
        .append(random.nextInt(48)).append("] ").append(LOGGERS[random.nextInt(LOGGERS.length)]).append(" - ");
    switch (random.nextInt(5)) {
      case 0 -> sb.append("order ").append(10_000_000 + random.nextInt(90_000_000)).append(' ')
          .append(STATES[random.nextInt(STATES.length)]).append(" region=").append(REGIONS[random.nextInt(
              REGIONS.length)]).append(" items=").append(1 + random.nextInt(9));
      case 1 -> sb.append("GET ").append(PATHS[random.nextInt(PATHS.length)]).append(" from 10.")
          .append(random.nextInt(256)).append('.').append(random.nextInt(256)).append('.')
          .append(random.nextInt(256)).append(" status=").append(random.nextInt(20) == 0 ? 500 : 200)
          .append(" ms=").append(random.nextInt(900));
      case 2 -> sb.append("user u").append(random.nextInt(1_000_000)).append(" session ")
          .append(Long.toHexString(random.nextLong())).append(" refreshed");
      case 3 -> sb.append("pool active=").append(random.nextInt(64)).append(" idle=").append(random.nextInt(64))
          .append(" waiting=").append(random.nextInt(8)).append(" ms=").append(random.nextInt(50));
      default -> sb.append("payment ").append(Long.toHexString(random.nextLong() >>> 16)).append(" amount=")
          .append(random.nextInt(100_000) / 100.0).append(" EUR accepted");
    }
    sb.append('\n');
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }
}
