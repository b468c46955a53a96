package io.objectcommit.staging;

import io.objectcommit.fs.MultipartUpload;
import io.objectcommit.fs.ObjectStore;
import io.objectcommit.fs.ObjectStores;
import io.objectcommit.fs.config.ConfigReader;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The command that lists or aborts incomplete uploads under a prefix:
 *
 * <pre>
 * java -cp "$(hadoop classpath):objectcommit-fs-core.jar:objectcommit-committer-staging.jar" \
 *   io.objectcommit.staging.PendingUploadsTool list|abort s3a://bucket/prefix [--older-than 24h] [-D key=value]...
 * </pre>
 *
 * The S3 connection comes from the {@code fs.s3a.*} keys of the Hadoop configuration on the classpath and the
 * {@code -D} options. Exit status: 0 done, 1 failure, 2 usage.
 */
public final class PendingUploadsTool {

  private PendingUploadsTool() {
  }

  public static void main(String[] args) {
    System.exit(run(args, new Configuration(), System.out, System.err, System.currentTimeMillis()));
  }

  static final String USAGE = "usage: PendingUploadsTool list|abort s3a://bucket/prefix [--older-than DURATION]"
      + " [-D key=value]...   (DURATION: 90s, 30m, 24h, 7d; default 24h)";

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, Configuration conf, PrintStream out, PrintStream err, long nowMs) {
    List<String> positional = new ArrayList<>();
    String age = "24h";
    try {
      for (int i = 0; i < args.length; i++) {
        if (args[i].equals("--older-than")) {
          age = args[++i];
        } else if (args[i].equals("-D")) {
          String kv = args[++i];
          int eq = kv.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("-D needs key=value, not " + kv);
          }
          conf.set(kv.substring(0, eq), kv.substring(eq + 1));
        } else {
          positional.add(args[i]);
        }
      }
      if (positional.size() != 2 || !(positional.get(0).equals("list") || positional.get(0).equals("abort"))) {
        throw new IllegalArgumentException("expected list or abort and a path");
      }
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      err.println(e.getMessage() == null ? USAGE : e.getMessage() + "\n" + USAGE);
      return 2;
    }
    Duration olderThan;
    try {
      Configuration c = new Configuration(false);
      c.set("age", age);
      olderThan = Duration.ofMillis(new ConfigReader(c, "-").getDurationMs("age", 0, 0));
    } catch (IllegalArgumentException e) {
      err.println("bad --older-than " + age + "\n" + USAGE);
      return 2;
    }
    URI uri = URI.create(positional.get(1));
    String prefix = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/+", "");
    try (ObjectStore store = ObjectStores.open(uri, conf)) {
      boolean abort = positional.get(0).equals("abort");
      List<MultipartUpload> uploads = abort ? PendingUploads.abort(store, prefix, olderThan, nowMs)
          : PendingUploads.list(store, prefix, olderThan, nowMs);
      for (MultipartUpload u : uploads) {
        out.println((abort ? "aborted " : "") + store.pathOf(u.key()) + "\t" + u.uploadId() + "\t"
            + (u.initiated() > 0 ? Instant.ofEpochMilli(u.initiated()).toString() : "?"));
      }
      out.println(uploads.size() + " incomplete uploads older than " + olderThan + " under " + store.pathOf(prefix)
          + (abort ? " aborted" : ""));
      return 0;
    } catch (Exception e) {
      err.println("failed: " + e);
      return 1;
    }
  }
}
