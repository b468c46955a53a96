package io.objectcommit.store.impl.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectcommit.store.SdkMissingException;
import io.objectcommit.store.StoreConstants;
import io.objectcommit.store.config.ConfigReader;
import io.objectcommit.store.impl.client.SdkBindings;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Which SDK binding is used: by classpath, by Hadoop's version when both are there, or forced by the key. */
class SdkBindingsTest {

  /** A class loader on which one SDK (by package prefix) is missing. */
  private static final class Without extends ClassLoader {
    private final String[] hidden;

    Without(String... hidden) {
      super(SdkBindingsTest.class.getClassLoader());
      this.hidden = hidden;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      for (String h : hidden) {
        if (name.startsWith(h)) {
          throw new ClassNotFoundException(name);
        }
      }
      return super.loadClass(name, resolve);
    }
  }

  private static final ClassLoader BOTH = SdkBindingsTest.class.getClassLoader();
  private static final ClassLoader ONLY_V1 = new Without("software.amazon.awssdk.");
  private static final ClassLoader ONLY_V2 = new Without("com.amazonaws.");
  private static final ClassLoader NEITHER = new Without("com.amazonaws.", "software.amazon.awssdk.");

  private static String choose(String value, ClassLoader loader, int hadoop) throws Exception {
    return SdkBindings.choose(value, StoreConstants.SDK, loader, hadoop).name();
  }

  @Test
  void autoTakesTheSdkOnTheClasspath() throws Exception {
    assertEquals("v1", choose("auto", ONLY_V1, 303));
    assertEquals("v1", choose("auto", ONLY_V1, 304));
    assertEquals("v2", choose("auto", ONLY_V2, 303));
    assertEquals("v2", choose("auto", ONLY_V2, 304));
  }

  @Test
  void withBothTheOneOfHadoopsS3a() throws Exception {
    assertEquals("v1", choose("auto", BOTH, 303));
    assertEquals("v2", choose("auto", BOTH, 304));
    assertEquals("v2", choose("auto", BOTH, 305));
  }

  @Test
  void theKeyForcesOne() throws Exception {
    assertEquals("v2", choose("v2", BOTH, 303));
    assertEquals("v1", choose("v1", BOTH, 304));
    Configuration conf = new Configuration(false);
    conf.set("fs.objectcommit.bucket.b.sdk", "V2");
    assertEquals("v2", SdkBindings.choose(new ConfigReader(conf, "b")).name());
    conf.set(StoreConstants.SDK, "v3");
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> SdkBindings.choose(new ConfigReader(conf, "other")));
    assertTrue(bad.getMessage().contains(StoreConstants.SDK), bad.getMessage());
  }

  @Test
  void aMissingSdkFailsNamingTheKey() {
    SdkMissingException v2 = assertThrows(SdkMissingException.class, () -> choose("v2", ONLY_V1, 304));
    assertEquals(StoreConstants.SDK, v2.key());
    assertTrue(v2.getMessage().contains("software.amazon.awssdk"), v2.getMessage());
    SdkMissingException v1 = assertThrows(SdkMissingException.class, () -> choose("v1", ONLY_V2, 303));
    assertTrue(v1.getMessage().contains("aws-java-sdk"), v1.getMessage());
    SdkMissingException none = assertThrows(SdkMissingException.class, () -> choose("auto", NEITHER, 304));
    assertTrue(none.getMessage().contains("neither AWS SDK"), none.getMessage());
  }
}
