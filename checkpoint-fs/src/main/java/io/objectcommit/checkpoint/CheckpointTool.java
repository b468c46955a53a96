package io.objectcommit.checkpoint;

import io.objectcommit.checkpoint.impl.Backend;
import io.objectcommit.checkpoint.impl.LocalPathBackend;
import io.objectcommit.checkpoint.impl.ManifestBackend;
import io.objectcommit.checkpoint.impl.ManifestInspector;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The checkpoint FileSystem's inspection tool.
 *
 * <pre>
 * CheckpointTool [-D key=value ...] ls     ckpt://bucket/path      the logical tree with sizes
 * CheckpointTool [-D key=value ...] verify ckpt://bucket/path      every manifest valid, every data object there
 * CheckpointTool [-D key=value ...] gc     ckpt://bucket/ [--min-age 1h] [--dry-run]
 *                                          delete objects no manifest refers to (S3), stale temporary files (local)
 * </pre>
 *
 * Settings are the same {@code fs.s3a.*} and {@code fs.objectcommit.*} keys as the job's (core-site.xml, or -D).
 * Exit code 0 when all is well, 1 when verify finds problems, 2 on bad usage.
 */
public final class CheckpointTool {

  private CheckpointTool() {
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    Configuration conf = new Configuration();
    conf.setIfUnset("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    List<String> rest = new ArrayList<>();
    long minAgeMs = 3_600_000;
    boolean dryRun = false;
    for (int i = 0; i < args.length; i++) {
      if ("-D".equals(args[i]) && i + 1 < args.length) {
        String kv = args[++i];
        int eq = kv.indexOf('=');
        if (eq < 1) {
          err.println("bad -D " + kv + ": expected key=value");
          return 2;
        }
        conf.set(kv.substring(0, eq), kv.substring(eq + 1));
      } else if ("--min-age".equals(args[i]) && i + 1 < args.length) {
        minAgeMs = io.objectcommit.fs.config.ConfigReader.parseDuration(args[++i]);
      } else if ("--dry-run".equals(args[i])) {
        dryRun = true;
      } else {
        rest.add(args[i]);
      }
    }
    if (rest.size() != 2) {
      err.println("usage: CheckpointTool [-D key=value ...] ls|verify|gc ckpt://<authority>/<path>"
          + " [--min-age 1h] [--dry-run]");
      return 2;
    }
    Path path = new Path(rest.get(1));
    try (FileSystem fs = FileSystem.newInstance(URI.create(path.toUri().getScheme() + "://"
        + path.toUri().getAuthority() + "/"), conf)) {
      if (!(fs instanceof CheckpointFileSystem)) {
        err.println(path + " is not on the checkpoint FileSystem (fs." + path.toUri().getScheme() + ".impl is "
            + fs.getClass().getName() + ")");
        return 2;
      }
      Backend backend = ((CheckpointFileSystem) fs).backend();
      String logical = path.toUri().getPath().isEmpty() ? "/" : path.toUri().getPath();
      switch (rest.get(0)) {
        case "ls":
          return ls(fs, backend, logical, path, out);
        case "verify":
          return verify(backend, logical, out);
        case "gc":
          return gc(backend, minAgeMs, dryRun, out);
        default:
          err.println("unknown command " + rest.get(0) + ": ls, verify or gc");
          return 2;
      }
    }
  }

  private static int ls(FileSystem fs, Backend backend, String logical, Path path, PrintStream out)
      throws IOException {
    if (backend instanceof ManifestBackend) {
      ManifestInspector.Summary s = new ManifestInspector((ManifestBackend) backend).list(logical, out);
      out.printf("%d directories, %d files, %d bytes%n", s.directories, s.files, s.bytes);
      return 0;
    }
    long[] totals = new long[2];
    lsLocal(fs, path, out, totals);
    out.printf("%d files, %d bytes%n", totals[0], totals[1]);
    return 0;
  }

  private static void lsLocal(FileSystem fs, Path dir, PrintStream out, long[] totals) throws IOException {
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.isDirectory()) {
        out.printf("%12s  %s/%n", "dir", st.getPath().toUri().getPath());
        lsLocal(fs, st.getPath(), out, totals);
      } else {
        totals[0]++;
        totals[1] += st.getLen();
        out.printf("%12d  %s%n", st.getLen(), st.getPath().toUri().getPath());
      }
    }
  }

  private static int verify(Backend backend, String logical, PrintStream out) throws IOException {
    if (!(backend instanceof ManifestBackend)) {
      out.println("nothing to verify on " + backend.describe() + ": the directory tree is the namespace");
      return 0;
    }
    ManifestInspector.Summary s = new ManifestInspector((ManifestBackend) backend).verify(logical, out);
    s.problems.forEach(p -> out.println("PROBLEM " + p));
    out.printf("verified %d directories and %d files (%d bytes): %s%n", s.directories, s.files, s.bytes,
        s.problems.isEmpty() ? "OK" : s.problems.size() + " problems");
    return s.problems.isEmpty() ? 0 : 1;
  }

  private static int gc(Backend backend, long minAgeMs, boolean dryRun, PrintStream out) throws IOException {
    List<String> removed;
    if (backend instanceof ManifestBackend) {
      removed = new ManifestInspector((ManifestBackend) backend).collectGarbage(minAgeMs, dryRun, out);
    } else {
      removed = ((LocalPathBackend) backend).removeStaleTemporaryFiles(minAgeMs, dryRun, out);
    }
    out.printf("%s %d objects%n", dryRun ? "would delete" : "deleted", removed.size());
    return 0;
  }
}
