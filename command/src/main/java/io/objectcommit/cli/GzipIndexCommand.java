package io.objectcommit.cli;

import io.objectcommit.codecs.CodecConstants;
import io.objectcommit.codecs.GzipIndexes;
import io.objectcommit.codecs.files.GzipIndex;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code objectcommit gzip-index}: builds the index of a plain gzip file and writes it beside the file
 * ({@link GzipIndexes#write}), so that Spark reads the file in splits with
 * {@code fs.objectcommit.codecs.gzip.index=use}.
 */
final class GzipIndexCommand implements Subcommand {

  static final String HELP = String.join("\n",
      "Usage: objectcommit gzip-index s3a://bucket/key|file:///path",
      "",
      "Reads a plain gzip file once and writes its index beside it as .<name>.gzindex (a hidden name:",
      "Spark and Hadoop skip it when they list the directory), replacing an older one. With the BGZF codec",
      "taking .gz (fs.objectcommit.codecs.bgzf.gz-extension=true) and fs.objectcommit.codecs.gzip.index=use,",
      "Spark then reads the file in splits, each from a checkpoint of the index, every line once; each",
      "piece is checked against the index's CRC-32. The index names the file's length and ETag: after the",
      "file changes it is not used (run this again). Index it before the jobs that read it start.",
      "Checkpoints every fs.objectcommit.codecs.gzip.index.spacing decoded bytes (default 8 MiB). Prints",
      "the checkpoints, the index's size and the file's decoded length.",
      COMMON_OPTIONS);

  @Override
  public String name() {
    return "gzip-index";
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
    if (args.size() != 1) {
      throw new UsageException(args.isEmpty() ? "expected the gzip file: s3a://bucket/key or file:///path"
          : "expected one gzip file, got " + args.size());
    }
    Path file = new Path(args.get(0));
    if (file.toUri().getScheme() == null) {
      throw new UsageException(args.get(0) + ": expected s3a://bucket/key or file:///path");
    }
    Configuration conf = line.configuration();
    GzipIndex index = GzipIndexes.write(file, conf);
    Path at = GzipIndexes.indexPath(file);
    FileSystem fs = at.getFileSystem(conf);
    long size = fs.getFileStatus(at).getLen();
    out.println("Indexed " + file + ": " + index.checkpoints.size() + " checkpoint(s) every "
        + CacheCommand.bytes(index.spacing) + " of " + CacheCommand.bytes(index.uncompressedLength)
        + " decoded (" + CacheCommand.bytes(index.length) + " compressed" + (index.etag == null ? ""
        : ", ETag " + index.etag) + ")");
    out.println("Wrote " + at + ": " + CacheCommand.bytes(size));
    out.println("Spark reads it in splits with " + CodecConstants.BGZF_CLAIM_GZ + "=true and "
        + CodecConstants.GZIP_INDEX + "=use");
    return ObjectCommitCommand.DONE;
  }
}
