package io.objectcommit.store.audit;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** objectcommit's version, as the build wrote it into the store module's jar. */
public final class ObjectCommitVersion {

  private static final Logger LOG = LoggerFactory.getLogger(ObjectCommitVersion.class);
  private static final String RESOURCE = "/io/objectcommit/store/objectcommit.properties";
  private static final String VERSION = read();

  private ObjectCommitVersion() {
  }

  /** The version ({@code 0.1.0}, {@code 0.2.0-SNAPSHOT}), or {@code unknown} when the jar lacks it. */
  public static String get() {
    return VERSION;
  }

  private static String read() {
    try (InputStream in = ObjectCommitVersion.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").trim();
        if (!v.isEmpty() && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      LOG.debug("cannot read {}", RESOURCE, e);
    }
    return "unknown";
  }
}
