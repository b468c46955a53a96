package io.objectcommit.store.it;

import io.objectcommit.store.impl.client.S3ClientSettings;
import org.apache.hadoop.conf.Configuration;

/**
 * Run by {@link V2ClientIT} in a child JVM whose environment holds the keys: a fresh Configuration with only
 * endpoint, region and path style (the provider list at Hadoop's default), then put, get and an exclusive create.
 * Arguments: endpoint, region, bucket, key.
 */
public final class V2ClientChild {

  static final String OK = "V2-CLIENT-CHILD OK";

  private V2ClientChild() {
  }

  public static void main(String[] args) throws Exception {
    Configuration c = new Configuration();
    c.set("fs.s3a.endpoint", args[0]);
    c.set("fs.s3a.endpoint.region", args[1]);
    c.set("fs.s3a.path.style.access", "true");
    String read = V2ClientIT.putGetExclusive(S3ClientSettings.from(c, args[2]), args[2], args[3]);
    if (!"one".equals(read)) {
      throw new AssertionError("read back '" + read + "'");
    }
    System.out.println(OK);
  }
}
