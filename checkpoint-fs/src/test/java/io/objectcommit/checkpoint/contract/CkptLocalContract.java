package io.objectcommit.checkpoint.contract;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** The checkpoint FileSystem's local-path backend, on a directory under target/, for Hadoop's contract suites. */
public class CkptLocalContract extends AbstractFSContract {

  private FileSystem fs;

  public CkptLocalContract(Configuration conf) {
    super(conf);
    addConfResource("contract/ckpt-local.xml");
  }

  @Override
  public void init() throws IOException {
    super.init();
    Path root = Path.of("target", "ckpt-local-contract").toAbsolutePath();
    Files.createDirectories(root);
    Configuration conf = getConf();
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    conf.set("fs.objectcommit.checkpoint.backend", "local");
    conf.set("fs.objectcommit.checkpoint.local.root", root.toString());
    conf.setBoolean("fs.objectcommit.checkpoint.local.fsync", false);
    fs = FileSystem.get(URI.create("ckpt://efs/"), conf);
  }

  @Override
  public String getScheme() {
    return "ckpt";
  }

  @Override
  public FileSystem getTestFileSystem() {
    return fs;
  }

  @Override
  public org.apache.hadoop.fs.Path getTestPath() {
    return new org.apache.hadoop.fs.Path("/test");
  }
}
