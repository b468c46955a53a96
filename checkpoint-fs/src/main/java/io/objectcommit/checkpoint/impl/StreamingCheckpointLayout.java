package io.objectcommit.checkpoint.impl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Structured Streaming checkpoint must contain for its query to resume, checked against the relative paths
 * of a listing. Spark-free: the layout is Spark's on-store format (the same on 3.5 and 4.x for what is checked here).
 *
 * <ul>
 *   <li>{@code metadata} (the query id);
 *   <li>the offset and commit log entries of the last committed batch N ({@code offsets/N}, {@code commits/N}) and
 *       {@code offsets/N-1} (Spark reads it on restart to know the committed offsets);
 *   <li>each source log ({@code sources/<i>/}, compacted every few batches): every entry from the newest
 *       {@code .compact} file (or 0) to its newest entry;
 *   <li>each state store directory (a directory holding {@code <v>.delta}, {@code .snapshot}, {@code .changelog} or
 *       {@code .zip} files): batch N+1 loads version N+1, rebuilt from the newest snapshot ({@code .snapshot}, RocksDB's
 *       {@code .zip}) at or below it and every delta ({@code .delta}, RocksDB's {@code .changelog}) above that
 *       snapshot, or from version 1 when there is none.
 * </ul>
 *
 * A batch whose offsets are written but not committed ({@code offsets/N+1} without {@code commits/N+1}) is what a
 * running query looks like (or one stopped in the middle of a batch, which Spark reruns).
 */
public final class StreamingCheckpointLayout {

  private static final Pattern BATCH = Pattern.compile("\\d+");
  private static final Pattern SOURCE_ENTRY = Pattern.compile("(\\d+)(\\.compact)?");
  /**
   * A state store file: {@code <version>.<kind>}, or with the state checkpoint format v2 (Spark 4, RocksDB)
   * {@code <version>_<unique id>.<kind>}, whose id the commit log records.
   */
  private static final Pattern STATE_FILE = Pattern.compile("(\\d+)(_[0-9A-Za-z-]+)?\\.(delta|snapshot|changelog|zip)");

  /** What the check found. */
  public static final class Findings {
    /** The newest committed batch, if any. */
    public final OptionalLong lastCommitted;
    /** The newest batch with offsets, if any. */
    public final OptionalLong lastOffsets;
    /** Relative paths that must exist and are not in the listing, each with why it is needed. */
    public final Map<String, String> missing;
    /** Why the checkpoint looks live (empty: it does not). */
    public final List<String> liveSigns;
    /** State store directories checked. */
    public final int stateStores;
    /** Source logs checked. */
    public final int sourceLogs;

    Findings(OptionalLong lastCommitted, OptionalLong lastOffsets, Map<String, String> missing, List<String> liveSigns,
        int stateStores, int sourceLogs) {
      this.lastCommitted = lastCommitted;
      this.lastOffsets = lastOffsets;
      this.missing = missing;
      this.liveSigns = liveSigns;
      this.stateStores = stateStores;
      this.sourceLogs = sourceLogs;
    }
  }

  private StreamingCheckpointLayout() {
  }

  /**
   * Checks the relative paths of a checkpoint's files ({@code offsets/3}, {@code state/0/1/4.delta}, ...).
   */
  public static Findings check(Collection<String> files) {
    TreeMap<String, TreeSet<String>> byDir = new TreeMap<>();
    for (String f : files) {
      int slash = f.lastIndexOf('/');
      byDir.computeIfAbsent(slash < 0 ? "" : f.substring(0, slash), d -> new TreeSet<>())
          .add(f.substring(slash + 1));
    }
    Map<String, String> missing = new TreeMap<>();
    List<String> live = new ArrayList<>();
    if (!byDir.getOrDefault("", new TreeSet<>()).contains("metadata")) {
      missing.put("metadata", "the query's id: every Structured Streaming checkpoint has it");
    }
    OptionalLong offsets = newest(byDir.get("offsets"));
    OptionalLong commits = newest(byDir.get("commits"));
    if (offsets.isPresent() && (commits.isEmpty() || offsets.getAsLong() > commits.getAsLong())) {
      live.add("offsets/" + offsets.getAsLong() + " has no commits/" + offsets.getAsLong() + ": the query is running"
          + " batch " + offsets.getAsLong() + ", or was stopped or failed in its middle (Spark then runs it again)");
    }
    int stores = 0;
    if (commits.isPresent()) {
      long n = commits.getAsLong();
      String why = "the last committed batch, " + n + ", which the query resumes after";
      require(byDir, "offsets", Long.toString(n), why, missing);
      if (n > 0) {
        require(byDir, "offsets", Long.toString(n - 1), "Spark reads the offsets of the batch before the last"
            + " committed one (" + n + ") when it restarts", missing);
      }
      for (Map.Entry<String, TreeSet<String>> d : byDir.entrySet()) {
        if (d.getKey().startsWith("state/") && d.getValue().stream().anyMatch(x -> STATE_FILE.matcher(x).matches())) {
          stores++;
          requireStateVersion(d.getKey(), d.getValue(), n + 1, missing);
        }
      }
    } else if (offsets.isPresent()) {
      for (String d : byDir.keySet()) {
        if (d.startsWith("state/")) {
          missing.put("commits/", "state exists (" + d + ") but no batch is committed");
          break;
        }
      }
    }
    int sources = 0;
    for (Map.Entry<String, TreeSet<String>> d : byDir.entrySet()) {
      if (d.getKey().matches("sources/[^/]+")) {
        sources++;
        requireSourceLog(d.getKey(), d.getValue(), missing);
      }
    }
    return new Findings(commits, offsets, missing, live, stores, sources);
  }

  private static void require(Map<String, ? extends Set<String>> byDir, String dir, String name, String why,
      Map<String, String> missing) {
    Set<String> names = byDir.get(dir);
    if (names == null || !names.contains(name)) {
      missing.put(dir + "/" + name, why);
    }
  }

  /**
   * Versions down from {@code version} to the newest snapshot, or to version 1, must all be there. With the format v2
   * a version counts as there when a file of it exists with any unique id (which id the query loads is in the commit
   * log, not read here); a missing one is named {@code <v>_*.<kind>}, a pattern, not a file to look up.
   */
  private static void requireStateVersion(String dir, Set<String> names, long version, Map<String, String> missing) {
    Map<Long, Set<String>> kinds = new TreeMap<>();
    boolean v2 = false;
    for (String n : names) {
      Matcher m = STATE_FILE.matcher(n);
      if (m.matches()) {
        kinds.computeIfAbsent(Long.parseLong(m.group(1)), k -> new TreeSet<>()).add(m.group(3));
        v2 |= m.group(2) != null;
      }
    }
    for (long v = version; v > 0; v--) {
      Set<String> k = kinds.getOrDefault(v, Set.of());
      if (k.contains("snapshot") || k.contains("zip")) {
        return;
      }
      if (!k.contains("delta") && !k.contains("changelog")) {
        String kind = kinds.values().stream().anyMatch(x -> x.contains("changelog") || x.contains("zip"))
            ? "changelog" : "delta";
        missing.put(dir + "/" + v + (v2 ? "_*." : ".") + kind, "state version " + v + ": version " + version
            + ", which the next batch loads, is rebuilt from the " + kind + "s down to a snapshot or to version 1");
        return;
      }
    }
  }

  /** Whether a relative path {@link Findings#missing} names is a file that can be looked up (not a pattern or dir). */
  public static boolean isLookup(String rel) {
    return !rel.endsWith("/") && !rel.contains("*");
  }

  /** A compacted metadata log: every entry from the newest compaction (or 0) to the newest entry. */
  private static void requireSourceLog(String dir, Set<String> names, Map<String, String> missing) {
    long newest = -1;
    long base = 0;
    Set<Long> ids = new TreeSet<>();
    for (String n : names) {
      Matcher m = SOURCE_ENTRY.matcher(n);
      if (m.matches()) {
        long id = Long.parseLong(m.group(1));
        ids.add(id);
        newest = Math.max(newest, id);
        if (m.group(2) != null) {
          base = Math.max(base, id);
        }
      }
    }
    for (long id = base; id <= newest; id++) {
      if (!ids.contains(id)) {
        missing.put(dir + "/" + id, "source log entry between the newest compaction (" + base + ") and the newest"
            + " entry (" + newest + "): the source reads them all when the query restarts");
        return;
      }
    }
  }

  private static OptionalLong newest(Set<String> names) {
    if (names == null) {
      return OptionalLong.empty();
    }
    return names.stream().filter(n -> BATCH.matcher(n).matches()).mapToLong(Long::parseLong).max();
  }
}
