package io.objectcommit.store.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoreContext;
import io.objectcommit.store.WriteCondition;
import io.objectcommit.testsupport.S3Endpoint;
import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.StubEndpoints;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.PathIOException;
import org.junit.jupiter.api.Test;

/**
 * Bad input gets one clear error, quickly, naming bucket and endpoint and never the secret: a missing bucket, an
 * unreachable endpoint, refused credentials, a malformed endpoint URL.
 */
@S3IntegrationTest
abstract class StoreErrorsIT {

  /** The binding under test ({@link StoreErrorsV1IT}, {@link StoreErrorsV2IT}): the same errors on both. */
  abstract Sdk sdk();

  private static final String SECRET = "s3cr3t-do-not-leak-4711";
  private static final long QUICK_MS = 15_000;

  private static Configuration confFor(String endpoint) {
    Configuration conf = new Configuration(false);
    conf.set("fs.s3a.endpoint", endpoint);
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.set("fs.s3a.path.style.access", "true");
    conf.set("fs.s3a.access.key", "AKIDEXAMPLE");
    conf.set("fs.s3a.secret.key", SECRET);
    return conf;
  }

  private static void assertClear(Exception e, String bucket, String endpoint) {
    String m = e.getMessage();
    assertTrue(m.contains(bucket), "names the bucket: " + m);
    assertTrue(m.contains(endpoint), "names the endpoint: " + m);
    assertFalse(m.contains(SECRET), "never the secret: " + m);
    for (Throwable t = e; t != null; t = t.getCause()) {
      assertFalse(String.valueOf(t.getMessage()).contains(SECRET), "no cause shows the secret: " + t);
    }
  }

  @Test
  void aMissingBucket(S3Endpoint endpoint) throws Exception {
    String bucket = "oc-missing-" + UUID.randomUUID().toString().substring(0, 8);
    String url = endpoint.uri().toString();
    Configuration conf = confFor(url);
    endpoint.s3aOptions().forEach(conf::set);
    try (ObjectStore store = sdk().open(bucket, conf)) {
      long t0 = System.currentTimeMillis();
      FileNotFoundException head = assertThrows(FileNotFoundException.class, () -> store.head("k"));
      assertTrue(head.getMessage().contains("no such bucket"), head.getMessage());
      assertClear(head, bucket, url);
      FileNotFoundException get = assertThrows(FileNotFoundException.class, () -> store.getBytes("k"));
      assertTrue(get.getMessage().contains("no such bucket"), get.getMessage());
      assertTrue(System.currentTimeMillis() - t0 < QUICK_MS);
    }
  }

  @Test
  void anUnreachableEndpoint() throws Exception {
    String url = StubEndpoints.closedLoopbackUrl();
    try (ObjectStore store = sdk().open("oc-unreachable", confFor(url))) {
      long t0 = System.currentTimeMillis();
      IOException e = assertThrows(IOException.class, () -> store.getBytes("k"));
      long took = System.currentTimeMillis() - t0;
      assertClear(e, "oc-unreachable", url);
      assertTrue(e.getMessage().contains("cannot connect"), e.getMessage());
      assertTrue(took < QUICK_MS, "bounded: " + took + " ms");
    }
  }

  @Test
  void aMissingBucketFoundByTheConditionalWriteCheck(S3Endpoint endpoint) throws Exception {
    String bucket = "oc-missing-" + UUID.randomUUID().toString().substring(0, 8);
    String url = endpoint.uri().toString();
    Configuration conf = confFor(url);
    endpoint.s3aOptions().forEach(conf::set);
    conf.unset("fs.objectcommit.conditional-writes"); // the default, detect: the first write probes the bucket
    try (ObjectStore store = sdk().open(bucket, conf)) {
      long t0 = System.currentTimeMillis();
      FileNotFoundException e = assertThrows(FileNotFoundException.class,
          () -> store.createExclusive("dir/k", Payload.of(new byte[] {1})));
      assertClear(e, bucket, url);
      String m = e.getMessage();
      assertTrue(m.contains("createExclusive s3://" + bucket + "/dir/k"), "the user's operation: " + m);
      assertTrue(m.contains("the bucket does not exist"), m);
      assertFalse(m.contains("op_delete"), "not the probe's cleanup: " + m);
      assertTrue(System.currentTimeMillis() - t0 < QUICK_MS);
    }
  }

  @Test
  void aClosedPortFoundByTheConditionalWriteCheck() throws Exception {
    String url = StubEndpoints.closedLoopbackUrl();
    try (ObjectStore store = sdk().open("oc-closed-port", confFor(url))) {
      long t0 = System.currentTimeMillis();
      PathIOException e = assertThrows(PathIOException.class,
          () -> store.createExclusive("dir/k", Payload.of(new byte[] {1})));
      assertClear(e, "oc-closed-port", url);
      String m = e.getMessage();
      assertTrue(m.contains("createExclusive s3://oc-closed-port/dir/k"), "the user's operation: " + m);
      assertTrue(m.contains("the endpoint refused the connection"), m);
      assertFalse(m.contains("op_delete"), "not the probe's cleanup: " + m);
      assertTrue(System.currentTimeMillis() - t0 < QUICK_MS);
    }
  }

  @Test
  void refusedCredentials() throws Exception {
    try (StubEndpoints.RefusingS3 refusing = StubEndpoints.refusingCredentials();
        ObjectStore store = sdk().open("oc-refused", confFor(refusing.url()))) {
      String url = refusing.url();
      long t0 = System.currentTimeMillis();
      AccessDeniedException e = assertThrows(AccessDeniedException.class, () -> store.getBytes("k"));
      assertClear(e, "oc-refused", url);
      assertTrue(e.getMessage().contains("InvalidAccessKeyId") && e.getMessage().contains("fs.s3a.access.key"),
          e.getMessage());
      assertTrue(System.currentTimeMillis() - t0 < QUICK_MS);
    }
  }

  @Test
  void aMalformedEndpointUrl() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> sdk().open("oc-malformed", confFor("http://bad host:99")));
    assertTrue(e.getMessage().contains("fs.s3a.endpoint") && e.getMessage().contains("oc-malformed"), e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
  }

  @Test
  void storesOfTheSameSettingsShareOneClient(S3TestBucket bucket) throws Exception {
    Configuration conf = sdk().on(S3ObjectStoreIT.conf(bucket));
    StoreContext context = new StoreContext(); // its own clients: counted from zero
    long jvmClients = StoreContext.jvm().clientsBuilt();
    try (ObjectStore a = context.open(bucket.name(), conf)) {
      assertEquals(1, context.clientsBuilt());
      try (ObjectStore b = context.open(bucket.name(), new Configuration(conf))) {
        assertEquals(1, context.clientsBuilt(), "the second store built no client of its own");
        assertEquals(2, context.leasesHeld(), "one lease per open store");
        a.put(bucket.key("shared"), Payload.of(new byte[] {1}), WriteCondition.none());
        assertTrue(b.head(bucket.key("shared")).isPresent());
      }
      assertEquals(1, context.leasesHeld(), "a closed store's lease released");
    }
    assertEquals(0, context.leasesHeld(), "every lease released");
    assertEquals(0, context.clientsAlive(), "the last lease shut the client down");
    Configuration other = sdk().on(S3ObjectStoreIT.conf(bucket));
    other.set("fs.s3a.connection.maximum", "7");
    try (ObjectStore c = context.open(bucket.name(), other)) {
      assertEquals(2, context.clientsBuilt(), "other settings: another client");
    }
    assertEquals(jvmClients, StoreContext.jvm().clientsBuilt(), "the JVM's context was not used");
  }
}
