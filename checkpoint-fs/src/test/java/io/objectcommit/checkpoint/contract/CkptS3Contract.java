package io.objectcommit.checkpoint.contract;

import io.objectcommit.checkpoint.CheckpointFileSystem;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3Endpoints;
import io.objectcommit.testsupport.S3TestBucket;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** The checkpoint FileSystem's S3 backend, on a bucket of the test endpoint, for Hadoop's contract suites. */
public class CkptS3Contract extends AbstractFSContract {

  private static S3TestBucket bucket;
  private FileSystem fs;

  public CkptS3Contract(Configuration conf) {
    super(conf);
    addConfResource("contract/ckpt-s3.xml");
  }

  static synchronized S3TestBucket bucket() {
    if (bucket == null) {
      S3Endpoint ep = S3Endpoints.shared().endpoint();
      bucket = S3TestBucket.create(ep, "ckpt-contract", null);
    }
    return bucket;
  }

  @Override
  public void init() throws IOException {
    super.init();
    Configuration conf = getConf();
    bucket().s3aOptions().forEach(conf::set);
    conf.set("fs.ckpt.impl", CheckpointFileSystem.class.getName());
    conf.setBoolean("fs.ckpt.impl.disable.cache", true);
    conf.set("fs.objectcommit.checkpoint.s3.prefix", bucket().prefix());
    fs = FileSystem.get(URI.create("ckpt://" + bucket().name() + "/"), conf);
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
  public Path getTestPath() {
    return new Path("/test");
  }
}
