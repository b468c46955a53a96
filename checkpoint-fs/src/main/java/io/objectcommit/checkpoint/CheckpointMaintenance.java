package io.objectcommit.checkpoint;

import io.objectcommit.checkpoint.impl.Backend;
import io.objectcommit.checkpoint.impl.CheckpointAdoption;
import io.objectcommit.checkpoint.impl.CheckpointExporter;
import io.objectcommit.checkpoint.impl.LocalCheckpointAdoption;
import io.objectcommit.checkpoint.impl.LocalPathBackend;
import io.objectcommit.checkpoint.impl.ManifestBackend;
import io.objectcommit.checkpoint.impl.ManifestInspector;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The checkpoint FileSystem's maintenance operations, which {@code objectcommit checkpoint ls|verify|gc} runs:
 * list the logical tree, verify every manifest and data object, delete what no manifest refers to. Each writes
 * its report to the given stream, one line per entry and a summary line last.
 */
public final class CheckpointMaintenance implements AutoCloseable {

  private final FileSystem fs;
  private final Backend backend;
  private final Path path;
  private final String logical;

  private CheckpointMaintenance(FileSystem fs, Path path) {
    this.fs = fs;
    this.backend = ((CheckpointFileSystem) fs).backend();
    this.path = path;
    this.logical = path.toUri().getPath().isEmpty() ? "/" : path.toUri().getPath();
  }

  /**
   * Opens the checkpoint file system of {@code path} (a new instance, closed by {@link #close()}).
   *
   * @throws IllegalArgumentException when the path's scheme is not served by {@link CheckpointFileSystem}
   */
  public static CheckpointMaintenance open(Path path, Configuration conf) throws IOException {
    URI uri = path.toUri();
    if (uri.getScheme() == null || uri.getAuthority() == null) {
      throw new IllegalArgumentException(path + " is not a checkpoint location: expected ckpt://<authority>/<path>");
    }
    FileSystem fs = FileSystem.newInstance(URI.create(uri.getScheme() + "://" + uri.getAuthority() + "/"), conf);
    if (!(fs instanceof CheckpointFileSystem)) {
      String impl = fs.getClass().getName();
      fs.close();
      throw new IllegalArgumentException(path + " is not on the checkpoint FileSystem (fs." + uri.getScheme()
          + ".impl is " + impl + ")");
    }
    return new CheckpointMaintenance(fs, path);
  }

  /** Prints the logical tree under the path with sizes, and a summary line. */
  public void ls(PrintStream out) throws IOException {
    if (backend instanceof ManifestBackend) {
      ManifestInspector.Summary s = new ManifestInspector((ManifestBackend) backend).list(logical, out);
      out.printf("%d directories, %d files, %d bytes%n", s.directories, s.files, s.bytes);
      return;
    }
    long[] totals = new long[2];
    lsLocal(path, out, totals);
    out.printf("%d files, %d bytes%n", totals[0], totals[1]);
  }

  private void lsLocal(Path dir, PrintStream out, long[] totals) throws IOException {
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.isDirectory()) {
        out.printf("%12s  %s/%n", "dir", st.getPath().toUri().getPath());
        lsLocal(st.getPath(), out, totals);
      } else {
        totals[0]++;
        totals[1] += st.getLen();
        out.printf("%12d  %s%n", st.getLen(), st.getPath().toUri().getPath());
      }
    }
  }

  /**
   * Adopts the stopped query's checkpoint at {@code source} as this location, without copying or rewriting its
   * files: see {@link CheckpointImport}. On the S3 backend the source is {@code s3a://bucket/prefix} (the bucket of
   * this location; manifests name its objects), on the local-path backend {@code file:///dir} (its files are
   * hard-linked under this location's directory, on the same file system). Prints the plan, progress and outcome.
   *
   * @throws CheckpointImportException when it refuses (nothing written): the source looks live (unless
   *     {@code force}), lacks a file its query needs, the listing lags, or this location exists
   */
  public CheckpointImport.Result importFrom(URI source, CheckpointImport.Options options, PrintStream out)
      throws IOException {
    if (backend instanceof LocalPathBackend) {
      return new LocalCheckpointAdoption((LocalPathBackend) backend).run(source, path, options, out);
    }
    return new CheckpointAdoption((ManifestBackend) backend).run(source, path, options, out);
  }

  /**
   * Writes this stopped query's checkpoint back as a plain checkpoint that stock Spark reads: see
   * {@link CheckpointExport}. On the S3 backend the target is {@code s3a://bucket/prefix} (the bucket of this
   * location), each file a server-side copy of its data object (none where the object already has the name); on the
   * local-path backend the checkpoint's directory already is a plain checkpoint: nothing is copied, and the
   * {@code file://} location to use is printed.
   *
   * @throws CheckpointExportException when it refuses (nothing copied): the query looks live (unless
   *     {@code force}), the checkpoint lacks a file its query needs, or the target holds other objects
   */
  public CheckpointExport.Result exportTo(URI target, CheckpointImport.Options options, PrintStream out)
      throws IOException {
    if (backend instanceof LocalPathBackend) {
      URI dir = ((LocalPathBackend) backend).local(path).toUri();
      out.println("nothing to copy: on " + backend.describe() + " the checkpoint's directory is a plain checkpoint;"
          + " start the query on checkpointLocation " + dir);
      return new CheckpointExport.Result(CheckpointExport.Result.Outcome.IN_PLACE, 0, 0, 0, 0, 0, List.of());
    }
    return new CheckpointExporter((ManifestBackend) backend).run(path, target, options, out);
  }

  /**
   * Checks every manifest under the path and that every data object it names exists; prints each problem.
   *
   * @return the problems found (empty when all is well)
   */
  public List<String> verify(PrintStream out) throws IOException {
    if (!(backend instanceof ManifestBackend)) {
      out.println("nothing to verify on " + backend.describe() + ": the directory tree is the namespace");
      return List.of();
    }
    ManifestInspector.Summary s = new ManifestInspector((ManifestBackend) backend).verify(logical, out);
    s.problems.forEach(p -> out.println("PROBLEM " + p));
    out.printf("verified %d directories and %d files (%d bytes): %s%n", s.directories, s.files, s.bytes,
        s.problems.isEmpty() ? "OK" : s.problems.size() + " problems");
    return List.copyOf(s.problems);
  }

  /**
   * Deletes what no manifest refers to (object stores) or stale temporary files (local paths), older than
   * {@code minAge}; with {@code dryRun} only prints what it would delete.
   *
   * @return the objects deleted (or that would be)
   */
  public List<String> gc(Duration minAge, boolean dryRun, PrintStream out) throws IOException {
    List<String> removed;
    List<String> kept = List.of();
    if (backend instanceof ManifestBackend) {
      ManifestInspector.Collected c = new ManifestInspector((ManifestBackend) backend).collectGarbage(
          minAge.toMillis(), dryRun, out);
      removed = c.deleted;
      kept = c.kept;
    } else {
      removed = ((LocalPathBackend) backend).removeStaleTemporaryFiles(minAge.toMillis(), dryRun, out);
    }
    out.printf("%s %d objects%n", dryRun ? "would delete" : "deleted", removed.size());
    if (!kept.isEmpty()) {
      out.printf("kept %d objects written again since gc listed them (deleted only while still the one listed)%n",
          kept.size());
    }
    if (backend instanceof ManifestBackend) {
      reportVersions((ManifestBackend) backend, out);
    }
    return removed;
  }

  /**
   * Counts the noncurrent versions and delete markers a versioned bucket keeps of the namespace's objects (gc's
   * own deletions included); zero on an unversioned bucket.
   *
   * @throws IllegalStateException on the local-path backend, which keeps no versions
   */
  public ManifestInspector.Versions versions() throws IOException {
    if (!(backend instanceof ManifestBackend)) {
      throw new IllegalStateException(backend.describe() + " keeps no object versions");
    }
    return new ManifestInspector((ManifestBackend) backend).versions();
  }

  private void reportVersions(ManifestBackend manifests, PrintStream out) throws IOException {
    ManifestInspector.Versions v;
    try {
      v = new ManifestInspector(manifests).versions();
    } catch (AccessDeniedException e) {
      out.println("cannot count noncurrent versions and delete markers (ListObjectVersions needs"
          + " s3:ListBucketVersions): " + e.getMessage());
      return;
    }
    out.printf("%d noncurrent versions (%d bytes) and %d delete markers under %s%n", v.noncurrent,
        v.noncurrentBytes, v.deleteMarkers, v.location);
    if (v.noncurrent + v.deleteMarkers > 0) {
      out.println("gc does not delete noncurrent versions or delete markers: on a versioned bucket a lifecycle rule"
          + " expires them (NoncurrentVersionExpiration, ExpiredObjectDeleteMarker; docs/user-guide.md, \"Versioned"
          + " buckets\")");
    }
  }

  @Override
  public void close() throws IOException {
    fs.close();
  }
}
