package io.objectcommit.codecs;

import io.objectcommit.codecs.files.GzipIndex;
import io.objectcommit.codecs.impl.CodecOptions;
import io.objectcommit.codecs.impl.GzipIndexBuilder;
import io.objectcommit.codecs.impl.GzipIndexCache;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index of a plain gzip file ({@link GzipIndex}), kept beside it as {@code .<name>.gzindex} (a hidden name: Hadoop
 * and Spark skip it when they list the directory as input), on any Hadoop file system ({@code s3a://},
 * {@code file://}, ...). It names the file's length and, where the file system gives one, its ETag: an index whose
 * file changed since is not used.
 */
public final class GzipIndexes {

  private static final Logger LOG = LoggerFactory.getLogger(GzipIndexes.class);

  /** The suffix of an index's name: {@value}. */
  public static final String SUFFIX = ".gzindex";

  private GzipIndexes() {
  }

  /** Where the index of {@code file} is. */
  public static Path indexPath(Path file) {
    return new Path(file.getParent(), "." + file.getName() + SUFFIX);
  }

  /**
   * Builds the index of the gzip file {@code file} in one read of it and writes it beside the file (replacing an
   * older one), with {@link CodecConstants#GZIP_INDEX_SPACING} from {@code conf}. A file that changed while it was
   * read (another length or ETag afterwards) is an {@link IOException} naming it, and no index is written.
   */
  public static GzipIndex write(Path file, Configuration conf) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    FileStatus before = fs.getFileStatus(file);
    GzipIndex index;
    try (InputStream in = fs.open(file)) {
      index = GzipIndexBuilder.build(in, before.getLen(), etag(before), CodecOptions.from(conf).gzipIndexSpacing());
    }
    FileStatus after = fs.getFileStatus(file);
    if (after.getLen() != before.getLen() || !Objects.equals(etag(after), etag(before))) {
      throw new IOException(file + " changed while it was indexed: no index written");
    }
    try (OutputStream out = fs.create(indexPath(file), true)) {
      out.write(GzipIndex.CODEC.toBytes(index));
    }
    return index;
  }

  /**
   * The index of {@code file}, if it has one built from the file as it is (same length and, where both have one,
   * ETag). A missing index is empty; one of an older version of the file is empty and logged; a damaged one is an
   * {@link IOException} naming it.
   */
  public static Optional<GzipIndex> find(Path file, Configuration conf) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    Path at = indexPath(file);
    FileStatus stored;
    try {
      stored = fs.getFileStatus(at);
    } catch (FileNotFoundException none) {
      return Optional.empty();
    }
    // this JVM's other splits of the file read the same version of the index: read once (GzipIndexCache)
    GzipIndex index = GzipIndexCache.jvm().get(stored, () -> {
      try (InputStream in = FutureIO.awaitFuture(fs.openFile(stored.getPath()).withFileStatus(stored).build())) {
        return in.readAllBytes();
      }
    });
    FileStatus status = fs.getFileStatus(file);
    String etag = etag(status);
    if (status.getLen() != index.length || (index.etag != null && etag != null && !index.etag.equals(etag))) {
      LOG.info("Gzip index {} is of an older version of {} (length {}, ETag {}; now {}, {}): not used", at, file,
          index.length, index.etag, status.getLen(), etag);
      return Optional.empty();
    }
    return Optional.of(index);
  }

  private static String etag(FileStatus status) {
    return status instanceof EtagSource ? ((EtagSource) status).getEtag() : null;
  }
}
