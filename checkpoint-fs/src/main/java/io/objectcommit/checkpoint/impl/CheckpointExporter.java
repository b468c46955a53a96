package io.objectcommit.checkpoint.impl;

import io.objectcommit.checkpoint.CheckpointExport;
import io.objectcommit.checkpoint.CheckpointExport.Result.Outcome;
import io.objectcommit.checkpoint.CheckpointExportException;
import io.objectcommit.checkpoint.CheckpointImport;
import io.objectcommit.checkpoint.files.DirManifest;
import io.objectcommit.checkpoint.files.DirManifest.Entry;
import io.objectcommit.store.Listings;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Parallel;
import io.objectcommit.store.Payload;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a stopped query's checkpoint of the S3 backend back as a plain checkpoint at a prefix of the same bucket,
 * which stock Spark reads on {@code s3a://}: every file of the logical tree becomes the object of its name under the
 * prefix, by a server-side copy of its data object (no bytes through this process), by a PUT of its bytes for a
 * small file kept in its directory's manifest, or by nothing at all where the data object already has that name (an
 * adopted object exported back to where it was imported from). Nothing of the checkpoint FileSystem's namespace is
 * written or deleted.
 *
 * <p>Before copying, the tree is checked against what the query needs to resume ({@link StreamingCheckpointLayout};
 * the manifests are authoritative, so a missing file is missing) and against signs that the query runs. The target
 * prefix must hold nothing but this checkpoint's files: an object there of the same name and ETag as the file's (for
 * a file kept in its manifest: the same bytes) is an earlier run's copy (resumable), anything else refuses the
 * export. The files are copied in an order that leaves a
 * partial target recognisable: {@code offsets/} after the state and source files, {@code commits/} after that and
 * {@code metadata} last, so a target without {@code metadata} is an export that did not finish (run it again). Within
 * each of these groups the copies run {@link CheckpointExport#COPY_THREADS} at a time.
 */
public final class CheckpointExporter {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointExporter.class);
  /** Progress lines at most this often. */
  private static final long PROGRESS_EVERY_MS = 5_000;
  /** Copies sent as one window, all finished before the next (progress is reported between windows). */
  private static final int WINDOW = 256;

  private final ManifestBackend backend;
  private final ObjectStore store;
  private final LongSupplier clock;

  public CheckpointExporter(ManifestBackend backend) {
    this(backend, System::currentTimeMillis);
  }

  CheckpointExporter(ManifestBackend backend, LongSupplier clock) {
    this.backend = backend;
    this.store = backend.store();
    this.clock = clock;
  }

  /** A file of the tree: its path relative to the checkpoint's directory and its manifest entry. */
  private static final class File {
    final String rel;
    final Entry entry;

    File(String rel, Entry entry) {
      this.rel = rel;
      this.entry = entry;
    }
  }

  /**
   * Exports the logical directory {@code location} to {@code target} ({@code s3a://bucket/prefix}, the backend's
   * bucket).
   *
   * @throws CheckpointExportException when the export is refused (nothing copied)
   */
  public CheckpointExport.Result run(Path location, URI target, CheckpointImport.Options options, PrintStream out)
      throws IOException {
    String prefix = targetPrefix(target);
    List<String> comps = ManifestBackend.components(location);
    String path = ManifestBackend.pathString(comps, comps.size());
    String where = "ckpt://" + store.bucket() + path + " -> " + store.pathOf(prefix);
    if (comps.isEmpty()) {
      throw refused(path, List.of("the source is the namespace's root: export a query's checkpoint directory"),
          false);
    }
    ManifestBackend.Dir dir = backend.resolve(comps, comps.size());
    List<File> files = new ArrayList<>();
    walk(dir.id, dir.path, "", files);
    if (files.isEmpty()) {
      throw refused(path, List.of("ckpt://" + store.bucket() + path + " holds no files"), false);
    }
    long bytes = 0;
    long newest = 0;
    List<String> rels = new ArrayList<>();
    for (File f : files) {
      rels.add(f.rel);
      bytes += f.entry.size;
      newest = Math.max(newest, f.entry.mtime);
    }

    // 1. What the query needs, against what the manifests name (authoritative: no lookup).
    StreamingCheckpointLayout.Findings layout = StreamingCheckpointLayout.check(rels);
    List<String> problems = new ArrayList<>();
    layout.missing.forEach((rel, why) -> problems.add("ckpt://" + store.bucket() + path + "/" + rel
        + " is missing: it is needed for " + why));
    if (!problems.isEmpty()) {
      throw refused(path, problems, false);
    }
    List<String> live = new ArrayList<>();
    for (String sign : layout.liveSigns) {
      live.add("ckpt://" + store.bucket() + path + ": " + sign);
    }
    long ageMs = clock.getAsLong() - newest;
    if (ageMs < options.idle().toMillis()) {
      live.add("ckpt://" + store.bucket() + path + " had a file written " + Math.max(0, ageMs / 1000) + " s ago, less"
          + " than the idle time (" + options.idle().toSeconds() + " s) a stopped query's checkpoint must have");
    }
    if (!live.isEmpty() && !options.force()) {
      throw refused(path, live, true);
    }
    for (String w : live) {
      out.println("WARNING (--force): the checkpoint looks live: " + w);
      LOG.warn("Exporting a checkpoint that looks live (--force): {}", w);
    }

    // 2. What the target holds: nothing but this checkpoint's files (an earlier run's copies, adopted objects).
    Map<String, ObjectInfo> there = new TreeMap<>();
    long[] listed = new long[1];
    Listings.forEach(store, prefix, o -> {
      listed[0]++;
      if (!o.key().endsWith("/")) { // S3A's directory markers are not files
        there.put(o.key().substring(prefix.length()), o);
      }
    });
    Map<String, File> byRel = new TreeMap<>();
    files.forEach(f -> byRel.put(f.rel, f));
    List<String> foreign = new ArrayList<>();
    List<File> toCopy = new ArrayList<>();
    long inPlace = 0;
    long alreadyThere = 0;
    long heads = 0;
    long gets = 0;
    for (Map.Entry<String, ObjectInfo> t : there.entrySet()) {
      if (!byRel.containsKey(t.getKey())) {
        foreign.add(store.pathOf(t.getValue().key()) + " is not a file of the checkpoint");
      }
    }
    for (File f : files) {
      String key = prefix + f.rel;
      ObjectInfo existing = there.get(f.rel);
      if (key.equals(f.entry.data)) {
        inPlace++;
        continue;
      }
      if (existing == null) {
        toCopy.add(f);
        continue;
      }
      boolean same;
      if (f.entry.isInline()) {
        // an ETag is not always the MD5 of the bytes (encryption with KMS): compare the bytes, a few KB
        same = existing.size() == f.entry.size && sameBytes(existing.key(), f.entry.inlineBytes());
        gets += existing.size() == f.entry.size ? 1 : 0;
      } else {
        String sourceEtag = f.entry.etag;
        if (sourceEtag == null) {
          heads++;
          Optional<ObjectInfo> source = store.head(f.entry.data);
          sourceEtag = source.map(ObjectInfo::etag).orElse(null);
        }
        same = existing.size() == f.entry.size && sourceEtag != null && sourceEtag.equals(existing.etag());
      }
      if (same) {
        alreadyThere++;
      } else {
        foreign.add(store.pathOf(existing.key()) + " exists and is not a copy of the checkpoint's " + f.rel
            + " (" + existing.size() + " bytes, ETag " + existing.etag() + "; the file has " + f.entry.size
            + " bytes)");
      }
    }
    if (!foreign.isEmpty()) {
      foreign.add("export into a prefix that holds nothing, or delete what is there first");
      throw refused(store.pathOf(prefix), foreign, false);
    }
    toCopy.sort(Comparator.comparingInt((File f) -> rank(f.rel)).thenComparing(f -> f.rel));
    long copyBytes = toCopy.stream().mapToLong(f -> f.entry.size).sum();
    long puts = toCopy.stream().filter(f -> f.entry.isInline()).count();

    String batches = layout.lastCommitted.isPresent() ? "last committed batch " + layout.lastCommitted.getAsLong()
        : "no committed batch";
    out.printf("plan: %s: %d files, %d bytes; %s; %d source logs and %d state stores checked; %d to copy (%d"
        + " bytes), %d already named so, %d copied by an earlier run%n", where, files.size(), bytes, batches,
        layout.sourceLogs, layout.stateStores, toCopy.size(), copyBytes, inPlace, alreadyThere);
    out.printf("requests: %d LIST, %d HEAD and %d GET done; to send %d COPY (server-side: no data through this"
        + " process) and %d PUT (files kept in their directory's manifest), metadata last; nothing of ckpt://%s"
        + " written or deleted%n", (listed[0] + Listings.PAGE_SIZE - 1) / Listings.PAGE_SIZE, heads, gets,
        toCopy.size() - puts, puts, store.bucket());
    if (options.dryRun()) {
      out.println("dry run: nothing copied");
      return new CheckpointExport.Result(Outcome.PLANNED, files.size(), bytes, toCopy.size(), inPlace,
          alreadyThere, live);
    }

    // 3. The copies: each group (state and sources, offsets, commits, metadata) in parallel, in windows, and a
    // group only after the one before it is whole.
    long done = 0;
    long doneBytes = 0;
    long lastReport = clock.getAsLong();
    try (Parallel pool = new Parallel("checkpoint-export", CheckpointExport.COPY_THREADS)) {
      int from = 0;
      while (from < toCopy.size()) {
        int group = rank(toCopy.get(from).rel);
        int to = from;
        while (to < toCopy.size() && to - from < WINDOW && rank(toCopy.get(to).rel) == group) {
          to++;
        }
        List<Parallel.IoTask<ObjectInfo>> copies = new ArrayList<>();
        for (File f : toCopy.subList(from, to)) {
          copies.add(f.entry.isInline()
              ? () -> store.put(prefix + f.rel, Payload.of(f.entry.inlineBytes()), WriteCondition.none())
              : () -> store.copy(f.entry.data, f.entry.etag, prefix + f.rel));
          doneBytes += f.entry.size;
        }
        pool.runAll(copies);
        done += to - from;
        from = to;
        long now = clock.getAsLong();
        if (now - lastReport >= PROGRESS_EVERY_MS && from < toCopy.size()) {
          lastReport = now;
          out.printf("progress: %d of %d files, %d of %d bytes%n", done, toCopy.size(), doneBytes, copyBytes);
        }
      }
    }
    Outcome outcome = toCopy.isEmpty() ? Outcome.ALREADY_EXPORTED : Outcome.EXPORTED;
    out.printf("%s: %s: %d files, %d bytes, %d copied%n", outcome == Outcome.EXPORTED ? "exported"
        : "already exported", where, files.size(), bytes, toCopy.size());
    LOG.info("Exported {}: {} files, {} bytes, {} copied, {} in place, {} from an earlier run", where, files.size(),
        bytes, toCopy.size(), inPlace, alreadyThere);
    return new CheckpointExport.Result(outcome, files.size(), bytes, toCopy.size(), inPlace, alreadyThere, live);
  }

  /** Collects the files under a directory, depth first. */
  private void walk(String dirId, String path, String rel, List<File> files) throws IOException {
    DirManifest m = backend.manifests().get(dirId, path, 0).manifest;
    for (Map.Entry<String, Entry> e : m.entries.entrySet()) {
      String childRel = rel.isEmpty() ? e.getKey() : rel + "/" + e.getKey();
      Entry v = e.getValue();
      if (v.isDir()) {
        walk(v.id, ("/".equals(path) ? "" : path) + "/" + e.getKey(), childRel, files);
      } else {
        files.add(new File(childRel, v));
      }
    }
  }

  /** Whether the object at {@code key} holds exactly {@code bytes} (one GET of a small object). */
  private boolean sameBytes(String key, byte[] bytes) throws IOException {
    try (InputStream in = store.open(key, 0, -1)) {
      return java.util.Arrays.equals(bytes, in.readAllBytes());
    } catch (java.io.FileNotFoundException gone) {
      return false;
    }
  }

  /** The copy order: state and source files, then offsets, then commits, then the query's metadata. */
  private static int rank(String rel) {
    if (rel.equals("metadata")) {
      return 3;
    }
    if (rel.startsWith("commits/")) {
      return 2;
    }
    return rel.startsWith("offsets/") ? 1 : 0;
  }

  private String targetPrefix(URI target) {
    String scheme = target.getScheme();
    if (scheme == null || !(scheme.equals("s3a") || scheme.equals("s3"))) {
      throw new IllegalArgumentException(target + ": expected s3a://<bucket>/<path> (the S3 backend exports to a"
          + " prefix of its own bucket)");
    }
    if (!store.bucket().equals(target.getAuthority())) {
      throw new IllegalArgumentException(target + " is in bucket " + target.getAuthority() + ", the checkpoint"
          + " namespace in " + store.bucket() + ": an export copies inside the namespace's own bucket (server-side)");
    }
    String p = target.getPath() == null ? "" : target.getPath().replaceAll("^/+", "").replaceAll("/+$", "");
    if (p.isEmpty()) {
      throw new IllegalArgumentException(target + ": name the checkpoint's directory, not the bucket");
    }
    String prefix = p + "/";
    String ns = backend.prefix() + ".ckpt/";
    if (prefix.startsWith(ns) || ns.startsWith(prefix)) {
      throw new IllegalArgumentException(target + " holds the checkpoint namespace's own objects ("
          + store.pathOf(ns) + ")");
    }
    return prefix;
  }

  static CheckpointExportException refused(String path, List<String> reasons, boolean forceable) {
    StringBuilder msg = new StringBuilder("export refused, nothing copied:");
    for (String r : reasons) {
      msg.append("\n  - ").append(r);
    }
    if (forceable) {
      msg.append("\nstop the query first; if it is stopped, --force exports all the same (Spark runs an uncommitted"
          + " batch again when the query restarts)");
    }
    return new CheckpointExportException(path, reasons, forceable, msg.toString());
  }
}
