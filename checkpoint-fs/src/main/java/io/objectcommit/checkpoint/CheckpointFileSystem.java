package io.objectcommit.checkpoint;

import io.objectcommit.checkpoint.impl.Backend;
import io.objectcommit.checkpoint.impl.CheckpointOptions;
import io.objectcommit.checkpoint.impl.LocalPathBackend;
import io.objectcommit.checkpoint.impl.ManifestBackend;
import io.objectcommit.store.ActionDeniedException;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.ObjectStores;
import io.objectcommit.store.audit.AuditContext;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.guarantee.ProbeSite;
import io.objectcommit.store.guarantee.StoreGuarantee;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.impl.PathCapabilitiesSupport;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consistency-safe FileSystem for Spark checkpoints: {@code ckpt://<authority>/path}. Enable it with
 * {@code spark.hadoop.fs.ckpt.impl=io.objectcommit.checkpoint.CheckpointFileSystem} and
 * {@code spark.hadoop.fs.AbstractFileSystem.ckpt.impl=io.objectcommit.checkpoint.CheckpointFs}.
 *
 * <p>The settings of an authority are parsed once, when it is initialised, into {@link CheckpointOptions}; every
 * key can be set for one authority as {@code fs.objectcommit.bucket.<authority>.<rest of the key>}.
 *
 * <p>Each authority is served by a backend ({@link CheckpointConstants#BACKEND}, settable per authority):
 * {@code s3}, where the authority is a bucket and the namespace lives in manifests changed only by conditional
 * writes (no LIST, no COPY); or {@code local}, where the authority maps to an EFS/NFS mount. On both, a file
 * appears whole and at once when its stream is closed, and {@code create(path, false)} is an atomic exclusive
 * create. A stream can be abandoned with Hadoop's {@code Abortable} ({@code FSDataOutputStream.abort()}, path
 * and stream capability {@code fs.capability.outputstream.abortable}): nothing of it becomes visible.
 */
public class CheckpointFileSystem extends FileSystem implements IOStatisticsSource {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointFileSystem.class);
  /** The component's name in the store's refusals. */
  private static final String COMPONENT = "checkpoint-fs (ckpt://)";

  private URI uri;
  private Path workingDir;
  private Backend backend;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String authority = name.getAuthority();
    if (authority == null || authority.isEmpty()) {
      throw new IllegalArgumentException("No authority (bucket or mount name) in " + name + ": use "
          + name.getScheme() + "://<bucket>/path");
    }
    this.uri = URI.create(name.getScheme() + "://" + authority);
    this.workingDir = new Path(uri.toString() + "/");
    this.backend = openBackend(name.getScheme(), authority, conf);
    LOG.debug("{} initialised: {}", uri, backend.describe());
  }

  static Backend openBackend(String scheme, String authority, Configuration conf) throws IOException {
    CheckpointOptions options = CheckpointOptions.from(new ConfigReader(conf, authority), scheme);
    LOG.debug("{}://{}/: {}", scheme, authority, options);
    String owner = UserGroupInformation.getCurrentUser().getShortUserName();
    if (options.backend() == CheckpointOptions.BackendKind.LOCAL) {
      return LocalPathBackend.open(options, owner);
    }
    ObjectStore store = ObjectStores.open(authority, conf, AuditContext.of(AuditContext.CHECKPOINT));
    try {
      // fail now, naming the store and this operation, if the bucket is unusable or lacks what the manifests rely
      // on (docs/stores.md); the check, where one runs, writes in the namespace's own bookkeeping (beside
      // .ckpt/dirs/), which the job must be allowed to write anyway. The cheapest guarantee alone first: a bucket
      // that cannot be used at all fails on one request, with one first failure
      ProbeSite site = ProbeSite.under(options.s3Prefix() + CheckpointConstants.PROBE_DIR)
          .forOperation("initialize " + scheme + "://" + authority + "/");
      store.requireGuarantees(EnumSet.of(StoreGuarantee.IF_NONE_MATCH_PUT), COMPONENT, site);
      store.requireGuarantees(CheckpointConstants.STORE_GUARANTEES, COMPONENT, site);
      return new ManifestBackend(store, options, owner);
    } catch (IOException | RuntimeException e) {
      Exception thrown = e instanceof ActionDeniedException
          ? outsideTheNamespace((ActionDeniedException) e, scheme, authority, options) : e;
      try {
        store.close();
      } catch (IOException | RuntimeException closeFailure) {
        thrown.addSuppressed(closeFailure);
      }
      if (thrown instanceof IOException) {
        throw (IOException) thrown;
      }
      throw (RuntimeException) thrown;
    }
  }

  /**
   * A refusal at the namespace's first write (the check's objects, or the root manifest), with where the namespace
   * lives: a job allowed to write only under a prefix needs {@value CheckpointConstants#S3_PREFIX} set to it.
   */
  private static ActionDeniedException outsideTheNamespace(ActionDeniedException e, String scheme,
      String authority, CheckpointOptions options) {
    ActionDeniedException described = new ActionDeniedException(e.getFile(), e.bucket(), e.key(), e.action(),
        e.onBucket(), e.getReason() + ". " + scheme + "://" + authority + "/ keeps its namespace (manifests under "
        + options.s3Prefix() + ".ckpt/, files under " + options.s3Prefix() + "<path>) under the key prefix '"
        + options.s3Prefix() + "' of " + ConfigReader.perBucketKey(CheckpointConstants.S3_PREFIX, authority)
        + " (or " + CheckpointConstants.S3_PREFIX + "); set it to a prefix the credentials may write");
    described.initCause(e);
    return described;
  }

  /** The backend serving this authority. */
  public Backend backend() {
    return backend;
  }

  /** Requests sent by this instance's backend, per operation (see the store module's statistic names). */
  @Override
  public IOStatistics getIOStatistics() {
    return backend == null ? null : backend.statistics();
  }

  @Override
  public String getScheme() {
    return uri == null ? CheckpointConstants.SCHEME : uri.getScheme();
  }

  @Override
  public URI getUri() {
    return uri;
  }

  private Path qualify(Path p) {
    return makeQualified(p);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return backend.open(qualify(f), bufferSize);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    return backend.create(qualify(f), overwrite, true);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
      EnumSet<CreateFlag> flags, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    Path q = qualify(f);
    if (q.getParent() != null) {
      FileStatus parent;
      try {
        parent = backend.getFileStatus(q.getParent());
      } catch (FileNotFoundException e) {
        throw new FileNotFoundException(q.getParent() + ": parent directory does not exist");
      }
      if (!parent.isDirectory()) {
        throw new ParentNotDirectoryException(q.getParent() + " is a file");
      }
    }
    return backend.create(q, flags.contains(CreateFlag.OVERWRITE), false);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    throw new UnsupportedOperationException(f + ": append is not supported by " + getScheme() + "://"
        + " (files are immutable once written)");
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    return backend.rename(qualify(src), qualify(dst));
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    return backend.delete(qualify(f), recursive);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    return backend.listStatus(qualify(f));
  }

  @Override
  public void setWorkingDirectory(Path newDir) {
    workingDir = qualify(newDir);
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    return backend.mkdirs(qualify(f));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return backend.getFileStatus(qualify(f));
  }

  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    switch (PathCapabilitiesSupport.validatePathCapabilityArgs(makeQualified(path),
        capability)) {
      case CommonPathCapabilities.FS_APPEND:
      case CommonPathCapabilities.FS_CONCAT:
      case CommonPathCapabilities.FS_CHECKSUMS:
        return false;
      case CommonPathCapabilities.ABORTABLE_STREAM:
        return true; // both backends' streams: see Backend.create
      default:
        return super.hasPathCapability(path, capability);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (backend != null) {
        backend.close();
      }
    }
  }

  @Override
  public String toString() {
    return "CheckpointFileSystem{" + (backend == null ? uri : backend.describe()) + "}";
  }
}
