package io.objectcommit.cli;

import io.objectcommit.staging.PendingUploads;
import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.audit.AuditContext;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** {@code objectcommit uploads list|abort}: incomplete multipart uploads under a prefix. */
final class UploadsCommand implements Subcommand {

  static final String HELP = String.join("\n",
      "Usage: objectcommit uploads list|abort s3a://bucket/prefix [--older-than DURATION]",
      "",
      "Lists or aborts the incomplete multipart uploads under a prefix: what a job that died left behind.",
      "They are invisible but billed until aborted (or until a lifecycle rule AbortIncompleteMultipartUpload",
      "removes them).",
      "  list    print each upload: path, upload id, when it was started",
      "  abort   abort them, one request each",
      "Options:",
      "  --older-than DURATION   only uploads started longer ago than this (default 24h; 0s for all; 90s,",
      "                          30m, 24h, 7d): choose longer than any running job",
      COMMON_OPTIONS);

  @Override
  public String name() {
    return "uploads";
  }

  @Override
  public String help() {
    return HELP;
  }

  @Override
  public CommandLine.Spec spec() {
    return new CommandLine.Spec().valued("--older-than");
  }

  @Override
  public int run(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.isEmpty() || !(args.get(0).equals("list") || args.get(0).equals("abort"))) {
      throw new UsageException(args.isEmpty() ? "expected list or abort and an s3a:// path"
          : "unknown action '" + args.get(0) + "': expected list or abort");
    }
    if (args.size() != 2) {
      throw new UsageException(args.size() < 2 ? "expected an s3a://bucket/prefix path after " + args.get(0)
          : "unexpected arguments after the path: " + String.join(" ", args.subList(2, args.size())));
    }
    String age = line.value("--older-than", "24h");
    Duration olderThan = CheckpointCommand.Durations.parse("--older-than", age);
    URI uri;
    try {
      uri = new URI(args.get(1));
    } catch (URISyntaxException e) {
      throw new UsageException(args.get(1) + ": not a path (" + e.getMessage() + ")");
    }
    if (uri.getScheme() == null || uri.getAuthority() == null) {
      throw new UsageException(args.get(1) + ": expected s3a://bucket/prefix");
    }
    String prefix = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/+", "");
    boolean abort = args.get(0).equals("abort");
    long now = System.currentTimeMillis();
    try (ObjectStore store = ObjectStores.open(uri, line.configuration(), AuditContext.of(AuditContext.CLI))) {
      List<MultipartUpload> uploads = abort ? PendingUploads.abort(store, prefix, olderThan, now)
          : PendingUploads.list(store, prefix, olderThan, now);
      for (MultipartUpload u : uploads) {
        out.println((abort ? "aborted " : "") + store.pathOf(u.key()) + "\t" + u.uploadId() + "\t"
            + (u.initiated() > 0 ? Instant.ofEpochMilli(u.initiated()).toString() : "?"));
      }
      out.println(uploads.size() + " incomplete uploads older than " + age + " under "
          + store.pathOf(prefix) + (abort ? " aborted" : ""));
      return 0;
    }
  }
}
