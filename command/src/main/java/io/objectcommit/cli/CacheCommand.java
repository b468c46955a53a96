package io.objectcommit.cli;

import io.objectcommit.readcache.CacheContents;
import io.objectcommit.readcache.CacheUsage;
import io.objectcommit.readcache.ReadCache;
import io.objectcommit.readcache.ReadCacheConstants;
import io.objectcommit.readcache.ReadCacheOptions;
import io.objectcommit.readcache.files.ApplicationUsage;
import io.objectcommit.store.config.ConfigReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * {@code objectcommit cache stats|clear}: the host's read cache directory ({@link ReadCache#contents},
 * {@link ReadCache#clear}) and what the applications read through it ({@link ReadCache#usage}), chosen by the same settings as the file system's ({@code fs.objectcommit.cache.*}).
 */
final class CacheCommand implements Subcommand {

  static final String HELP = String.join("\n",
      "Usage: objectcommit cache stats|clear [s3a://bucket]",
      "",
      "The read cache directory of this user on this host (fs.objectcommit.cache.dir, default",
      "<java.io.tmpdir>/objectcommit-cache-<user.name>), chosen by the settings a job has; give the bucket",
      "when per-bucket settings (fs.objectcommit.bucket.<bucket>.cache.*) choose its cache.",
      "  stats   print what is on disk: blocks, bytes, the bound (fs.objectcommit.cache.max-size), the last",
      "          use of the least and the most recently used block, temporary files of fills; then what each",
      "          application read through the cache on this host (blocks and bytes from the cache and from",
      "          S3, requests saved, evictions), from the records its JVMs keep in the directory's",
      "          applications/ (rewritten every 5 s while they read, and when they end; kept 7 days, 1000 at",
      "          most), and the host's total",
      "  clear   delete every block: safe while applications read (a reader gets a whole block or fetches",
      "          it again); fills in flight complete, their temporary files are left to them; the",
      "          applications' records are kept",
      COMMON_OPTIONS);

  @Override
  public String name() {
    return "cache";
  }

  @Override
  public String help() {
    return HELP;
  }

  @Override
  public CommandLine.Spec spec() {
    return new CommandLine.Spec();
  }

  @Override
  public int run(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.isEmpty() || !List.of("stats", "clear").contains(args.get(0))) {
      throw new UsageException(args.isEmpty() ? "expected stats or clear"
          : "unknown action '" + args.get(0) + "': expected stats or clear");
    }
    if (args.size() > 2) {
      throw new UsageException("unexpected arguments after the bucket: " + String.join(" ", args.subList(2,
          args.size())));
    }
    String bucket = args.size() == 2 ? bucket(args.get(1)) : "";
    ReadCacheOptions options = ReadCacheOptions.from(new ConfigReader(line.configuration(), bucket));
    if (args.get(0).equals("stats")) {
      print(ReadCache.contents(options), options, Instant.now(), out);
      print(ReadCache.usage(options), options, Instant.now(), out);
    } else {
      CacheContents removed = ReadCache.clear(options);
      if (!removed.exists()) {
        out.println("No read cache at " + options.dir() + " (" + options.dirKey() + "): nothing to clear");
        return ObjectCommitCommand.DONE;
      }
      out.println("Cleared the read cache at " + options.dir() + ": deleted " + removed.blocks() + " block(s), "
          + bytes(removed.blockBytes()) + ", and " + removed.tempFiles() + " temporary file(s) of dead fills");
      CacheContents left = ReadCache.contents(options);
      if (left.blocks() > 0 || left.tempFiles() > 0) {
        out.println("Since then: " + left.blocks() + " block(s) filled by running applications, "
            + left.tempFiles() + " fill(s) in flight");
      }
    }
    return ObjectCommitCommand.DONE;
  }

  /** The report of {@code stats}. */
  static void print(CacheContents c, ReadCacheOptions options, Instant now, PrintStream out) {
    if (!c.exists()) {
      out.println("No read cache at " + c.dir() + " (" + options.dirKey() + "): nothing cached on this host yet");
      return;
    }
    out.println("Read cache " + c.dir() + " (" + options.dirKey() + ")");
    out.println(row("blocks", Long.toString(c.blocks())));
    out.println(row("bytes", bytes(c.blockBytes()) + String.format(Locale.ROOT, ", %.1f%% of the bound",
        100.0 * c.blockBytes() / options.maxSize())));
    out.println(row("bound", bytes(options.maxSize()) + " (" + ReadCacheConstants.MAX_SIZE + ")"));
    out.println(row("block size", bytes(options.blockSize()) + " (" + ReadCacheConstants.BLOCK_SIZE + ")"));
    out.println(row("oldest block", c.oldestUse().map(t -> "last used " + age(t, now) + " ago (" + t + ")")
        .orElse("-")));
    out.println(row("newest block", c.newestUse().map(t -> "last used " + age(t, now) + " ago (" + t + ")")
        .orElse("-")));
    out.println(row("temporary files", c.tempFiles() + ", " + bytes(c.tempBytes())
        + " (fills in flight; older than 10 minutes: of killed fills, swept)"));
  }

  /** The applications' part of {@code stats}: each application's use of the cache on this host, and the sum. */
  static void print(CacheUsage u, ReadCacheOptions options, Instant now, PrintStream out) {
    if (u.records().isEmpty() && u.unreadable().isEmpty()) {
      if (Files.exists(options.dir())) {
        out.println("Applications: no record yet (a JVM writes its record every "
            + ReadCacheConstants.RECORD_INTERVAL_MS / 1000 + " s while it reads, and when it ends)");
      }
      return;
    }
    out.println("Applications (" + u.applications().size() + ", from " + u.records().size() + " record(s) in "
        + options.dir().resolve(ReadCacheConstants.APPLICATIONS_SUBDIR) + ", one per application and JVM):");
    for (ApplicationUsage a : u.applications()) {
      int jvms = u.jvms(a.application);
      out.println("  " + a.application + (a.applicationName == null ? "" : " (" + a.applicationName + ")") + ": "
          + jvms + (jvms == 1 ? " JVM" : " JVMs") + ", updated " + age(Instant.ofEpochMilli(a.updated), now)
          + " ago");
      out.println("    " + counts(a));
    }
    u.host().ifPresent(h -> {
      out.println("  host " + h.host + ", every application:");
      out.println("    " + counts(h));
    });
    for (String why : u.unreadable()) {
      out.println("  not a record, skipped: " + why);
    }
  }

  private static String counts(ApplicationUsage a) {
    return "from the cache " + a.hits + " block(s), " + bytes(a.bytesFromCache) + "; from S3 " + a.misses
        + " GET(s), " + bytes(a.bytesFromStore) + "; requests saved " + a.requestsSaved + "; evicted " + a.evictions
        + " block(s), " + bytes(a.evictedBytes) + (a.checksumFailures == 0 ? "" : "; failed checks "
        + a.checksumFailures) + (a.writeFailures == 0 ? "" : "; failed writes " + a.writeFailures);
  }

  private static String row(String name, String value) {
    return String.format(Locale.ROOT, "%-18s %s", name, value);
  }

  private static String bucket(String arg) throws UsageException {
    URI uri;
    try {
      uri = new URI(arg);
    } catch (URISyntaxException e) {
      throw new UsageException(arg + ": not a path (" + e.getMessage() + ")");
    }
    if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("s3a") || uri.getHost() == null) {
      throw new UsageException(arg + ": expected s3a://bucket");
    }
    return uri.getHost();
  }

  /** {@code 123456 bytes (120.6 KiB)}. */
  static String bytes(long n) {
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    if (n < 1024) {
      return n + " bytes";
    }
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%d bytes (%.1f %s)", n, v, units[u]);
  }

  /** {@code 3d 4h}, {@code 2h 5m}, {@code 4m 10s}, {@code 12s}. */
  static String age(Instant t, Instant now) {
    Duration d = Duration.between(t, now);
    if (d.isNegative()) {
      d = Duration.ZERO;
    }
    long s = d.toSeconds();
    if (s >= 86_400) {
      return s / 86_400 + "d " + (s % 86_400) / 3600 + "h";
    }
    if (s >= 3600) {
      return s / 3600 + "h " + (s % 3600) / 60 + "m";
    }
    if (s >= 60) {
      return s / 60 + "m " + s % 60 + "s";
    }
    return s + "s";
  }
}
