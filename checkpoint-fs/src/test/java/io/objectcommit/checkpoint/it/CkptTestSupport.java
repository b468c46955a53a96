package io.objectcommit.checkpoint.it;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Checkpoint FileSystems on a test bucket, directly or through a proxy endpoint. */
final class CkptTestSupport {

  private CkptTestSupport() {
  }

  static Configuration conf(S3Endpoint endpoint, S3TestBucket bucket) {
    Configuration conf = new Configuration();
    endpoint.s3aOptions().forEach(conf::set);
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    conf.set("fs.objectcommit.checkpoint.s3.prefix", bucket.prefix());
    return conf;
  }

  static FileSystem fs(Configuration conf, S3TestBucket bucket) throws IOException {
    return FileSystem.get(URI.create("ckpt://" + bucket.name() + "/"), conf);
  }

  static Path path(S3TestBucket bucket, String relative) {
    return new Path("ckpt://" + bucket.name() + "/" + relative);
  }

  static void write(FileSystem fs, Path p, String text, boolean overwrite) throws IOException {
    try (var out = fs.create(p, overwrite)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  static String read(FileSystem fs, Path p) throws IOException {
    try (var in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
