package io.objectcommit.cli;

import io.objectcommit.codecs.Recompression;
import io.objectcommit.codecs.RecompressionResult;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.audit.AuditContext;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * {@code objectcommit recompress}: a gzip or bzip2 object or file into BGZF or seekable zstd, by
 * {@link Recompression}; this class parses and prints.
 */
final class RecompressCommand implements Subcommand {

  static final String HELP = String.join("\n",
      "Usage: objectcommit recompress s3a://bucket/key|file:///path --to bgzf|zstd [--in-place] [--overwrite]",
      "                               [--delete-source] [--dry-run]",
      "",
      "Turns a gzip (one member or several) or bzip2 object or file into BGZF or seekable zstd, which Spark",
      "reads in splits (the codecs registered: docs/user-guide.md, \"Compressed text that Spark splits\").",
      "Streams: one read of the source, the target written in parts of fs.objectcommit.codecs.recompress.",
      "part-size (one part in memory). Prints the sizes, and the bytes, lines and CRC-32 of the uncompressed",
      "stream (compare: gzip -dc x.gz | wc -lc). Targets: BGZF beside the source as <name>.bgz, seekable",
      "zstd beside it as <name>.seekable.zst (<name>: the name without .gz, .gzip or .bz2). A target that",
      "exists is refused. A source that is BGZF already is left as it is (--to bgzf): nothing to do.",
      "Options:",
      "  --to bgzf|zstd    the format to write (required)",
      "  --in-place        BGZF from gzip only: replace the source under its own name (BGZF is gzip); on S3",
      "                    only if the object still has the ETag read (If-Match): an overwrite made",
      "                    meanwhile is kept and the command fails naming the object",
      "  --overwrite       replace a target that exists",
      "  --delete-source   delete the source once the target is written (on S3 only if it still has the",
      "                    ETag read)",
      "  --dry-run         read the source's first bytes, say what would be written, write nothing",
      COMMON_OPTIONS);

  @Override
  public String name() {
    return "recompress";
  }

  @Override
  public String help() {
    return HELP;
  }

  @Override
  public CommandLine.Spec spec() {
    return new CommandLine.Spec().valued("--to").flag("--in-place").flag("--overwrite").flag("--delete-source")
        .flag("--dry-run");
  }

  @Override
  public int run(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.size() != 1) {
      throw new UsageException(args.isEmpty() ? "expected the source: s3a://bucket/key or file:///path"
          : "expected one source, got " + args.size() + ": " + String.join(" ", args));
    }
    String to = line.value("--to", null);
    if (to == null) {
      throw new UsageException("--to bgzf|zstd is required");
    }
    Recompression.Options options;
    try {
      options = Recompression.Options.to(Recompression.Format.parse(to)).inPlace(line.flag("--in-place"))
          .overwrite(line.flag("--overwrite")).deleteSource(line.flag("--delete-source"))
          .dryRun(line.flag("--dry-run"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    URI uri;
    try {
      uri = new URI(args.get(0));
    } catch (URISyntaxException e) {
      throw new UsageException(args.get(0) + ": not a path (" + e.getMessage() + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    Configuration conf = line.configuration();
    RecompressionResult result;
    if (scheme.equals("file")) {
      result = Recompression.recompress(Path.of(uri), options, conf);
    } else if (List.of("s3a", "s3", "s3n").contains(scheme) && uri.getAuthority() != null) {
      String key = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/+", "");
      if (key.isEmpty() || key.endsWith("/")) {
        throw new UsageException(args.get(0) + ": expected an object, not a bucket or a prefix");
      }
      try (ObjectStore store = ObjectStores.open(uri, conf, AuditContext.of(AuditContext.CLI))) {
        result = Recompression.recompress(store, key, options, conf);
      }
    } else {
      throw new UsageException(args.get(0) + ": expected s3a://bucket/key or file:///path");
    }
    print(result, out);
    return ObjectCommitCommand.DONE;
  }

  static void print(RecompressionResult r, PrintStream out) {
    switch (r.outcome()) {
      case ALREADY_BGZF:
        out.println(r.source() + ": BGZF already (" + r.sourceBytes() + " bytes): nothing to do");
        return;
      case DRY_RUN:
        out.println("Dry run: would recompress " + r.source() + " (" + r.sourceFormat() + ", " + r.sourceBytes()
            + " bytes) to " + r.target() + (r.target().equals(r.source()) ? " (in place, If-Match)"
                : r.targetExists() ? " (exists: --overwrite replaces it)" : " (new)"));
        return;
      default:
        out.println("Recompressed " + r.source() + " (" + r.sourceFormat() + ", " + r.sourceBytes() + " bytes) to "
            + r.target() + " (" + r.targetBytes() + " bytes)");
        out.println(String.format(Locale.ROOT, "uncompressed: %d bytes, %d lines, CRC-32 %08x",
            r.uncompressedBytes(), r.lines(), r.crc32()));
        if (r.sourceDeleted()) {
          out.println("deleted " + r.source());
        }
    }
  }
}
