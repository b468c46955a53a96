package io.objectcommit.cli;

import io.objectcommit.checkpoint.CheckpointConstants;
import io.objectcommit.direct.DirectCommitterConstants;
import io.objectcommit.staging.StagingConstants;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.guarantee.GuaranteeReport;
import io.objectcommit.store.guarantee.StoreCheck;
import io.objectcommit.store.guarantee.StoreGuarantee;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code objectcommit store check}: the whole store guarantee check, run now, before a deployment
 * ({@link StoreCheck}); one line per guarantee in the shape of docs/stores.md's tables.
 */
final class StoreCommand implements Subcommand {

  /** Exit code: every guarantee holds. */
  static final int HOLDS = ObjectCommitCommand.DONE;
  /** Exit code: a guarantee fails (or was not checked because an earlier one failed). */
  static final int FAILS = ObjectCommitCommand.FAILURE;
  /** Exit code: the check could not run (no bucket, an action or the credentials refused, endpoint down). */
  static final int NOT_RUN = ObjectCommitCommand.UNAVAILABLE;

  static final String HELP = String.join("\n",
      "Usage: objectcommit store check s3a://bucket/prefix [--all]",
      "",
      "Checks now that the store gives every guarantee objectcommit's components rely on (docs/stores.md):",
      "the whole check, whatever fs.objectcommit.conditional-writes says (Amazon S3 too, which the components",
      "trust without a check). It writes, races and reads objects under the prefix (in a fresh check-<uuid>/,",
      "deleted at the end; fs.objectcommit.probe.prefix wins when set): give it the prefix your jobs write",
      "under, so that their permissions are what is checked. Prints one line per guarantee: its verdict, what",
      "was seen, its requests and milliseconds; then the total, and what each component makes of the store.",
      "Options:",
      "  --all   check the two races even after a guarantee failed (skipped by default, as a component's",
      "          check skips them)",
      "Exit codes of store check: 0 every guarantee holds, 1 a guarantee fails, 2 bad usage, 3 the check could",
      "not run (no bucket, an action or the credentials refused, the endpoint down).",
      COMMON_OPTIONS);

  private static final String ROW = "%-24s %-12s %8s %7s  %s";

  /** Each component and the guarantees it asks for, as it asks for them. */
  private static final Map<String, Set<StoreGuarantee>> COMPONENTS = new LinkedHashMap<>();

  static {
    COMPONENTS.put("checkpoint-fs (ckpt://)", CheckpointConstants.STORE_GUARANTEES);
    COMPONENTS.put("direct committer", DirectCommitterConstants.STORE_GUARANTEES);
    COMPONENTS.put("staging committer", StagingConstants.STORE_GUARANTEES);
  }

  @Override
  public String name() {
    return "store";
  }

  @Override
  public String help() {
    return HELP;
  }

  @Override
  public CommandLine.Spec spec() {
    return new CommandLine.Spec().flag("--all");
  }

  @Override
  public int run(CommandLine line, PrintStream out) throws Exception {
    List<String> args = line.positional();
    if (args.isEmpty() || !args.get(0).equals("check")) {
      throw new UsageException(args.isEmpty() ? "expected check and an s3a://bucket/prefix path"
          : "unknown action '" + args.get(0) + "': expected check");
    }
    if (args.size() != 2) {
      throw new UsageException(args.size() < 2 ? "expected an s3a://bucket/prefix path after check"
          : "unexpected arguments after the path: " + String.join(" ", args.subList(2, args.size())));
    }
    URI uri;
    try {
      uri = new URI(args.get(1));
    } catch (URISyntaxException e) {
      throw new UsageException(args.get(1) + ": not a path (" + e.getMessage() + ")");
    }
    if (uri.getScheme() == null || uri.getAuthority() == null
        || !List.of("s3a", "s3", "s3n").contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
      throw new UsageException(args.get(1) + ": expected s3a://bucket/prefix");
    }
    String operation = "objectcommit store check " + args.get(1);
    StoreCheck check;
    try {
      check = ObjectStores.checkGuarantees(uri, line.configuration(), AuditContext.of(AuditContext.CLI), operation,
          !line.flag("--all"));
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      throw new CommandException(NOT_RUN, "the check could not run (exit code " + NOT_RUN + "): "
          + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
    print(check, out);
    return check.allHold() ? HOLDS : FAILS;
  }

  /** The report: where, one line per guarantee in the order checked, the cleanup, the total, the verdict. */
  static void print(StoreCheck check, PrintStream out) {
    GuaranteeReport r = check.report();
    out.println("Store check of " + check.where());
    check.amazonS3().ifPresent(a -> out.println(a.isAmazonS3()
        ? "Amazon S3 (" + a.reason() + "): fs.objectcommit.conditional-writes=detect trusts it without a check;"
            + " checked here all the same"
        : "Not Amazon S3 (" + a.reason() + "): the components check it once per application with"
            + " fs.objectcommit.conditional-writes=detect"));
    out.println("Wrote under " + r.where() + " (deleted at the end)");
    out.println();
    out.println(String.format(Locale.ROOT, ROW, "guarantee", "verdict", "requests", "ms", "seen"));
    for (StoreGuarantee g : r.asked()) {
      Optional<GuaranteeReport.Cost> cost = r.cost(g);
      String verdict;
      String seen;
      if (!r.checked().contains(g)) {
        verdict = "not checked";
        seen = "an earlier guarantee failed (--all checks it)";
      } else if (r.failures().containsKey(g)) {
        verdict = "FAILS";
        seen = r.failures().get(g);
      } else {
        verdict = "holds";
        seen = g.description();
      }
      out.println(row(g.name(), verdict, cost, seen));
    }
    out.println(row("cleanup", "", r.cleanup(), "the check's objects deleted, its refused uploads aborted"));
    String held = r.held().size() + " of " + r.asked().size() + " hold";
    out.println(String.format(Locale.ROOT, ROW, "total", held, r.requests(), r.millis(), "").stripTrailing());
    out.println();
    out.println("Components (docs/stores.md, 'Who needs what'):");
    COMPONENTS.forEach((component, needed) -> out.println(String.format(Locale.ROOT, "  %-24s %s", component,
        verdict(r, needed))));
    out.println();
    if (check.allHold()) {
      out.println("Every guarantee holds: every component (checkpoint-fs, the direct and the staging committer) can"
          + " use this store.");
    } else {
      out.println("FAILS " + r.failures().keySet().stream().map(Enum::name).collect(Collectors.joining(", "))
          + ": the components that rely on " + (r.failures().size() == 1 ? "it" : "them") + " are refused on this"
          + " store (docs/stores.md, 'Who needs what').");
    }
  }

  /** What a component that relies on {@code needed} makes of the store. */
  static String verdict(GuaranteeReport r, Set<StoreGuarantee> needed) {
    List<String> failed = r.asked().stream().filter(g -> needed.contains(g) && r.failures().containsKey(g))
        .map(Enum::name).collect(Collectors.toList());
    if (!failed.isEmpty()) {
      return "refused: " + String.join(", ", failed) + (failed.size() == 1 ? " fails" : " fail");
    }
    List<String> unknown = r.asked().stream().filter(g -> needed.contains(g) && !r.checked().contains(g))
        .map(Enum::name).collect(Collectors.toList());
    if (!unknown.isEmpty()) {
      return "not known: " + String.join(", ", unknown) + " not checked (--all checks " + (unknown.size() == 1
          ? "it" : "them") + ")";
    }
    return "can use this store";
  }

  private static String row(String name, String verdict, Optional<GuaranteeReport.Cost> cost, String seen) {
    String requests = cost.map(c -> Long.toString(c.requests())).orElse("-");
    String ms = cost.map(c -> Long.toString(c.millis())).orElse("-");
    String retried = cost.filter(c -> c.retries() > 0).map(c -> " [" + c.retries() + " retried]").orElse("");
    return String.format(Locale.ROOT, ROW, name, verdict, requests, ms, seen + retried).stripTrailing();
  }
}
