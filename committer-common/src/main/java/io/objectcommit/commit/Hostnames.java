package io.objectcommit.commit;

import java.io.IOException;
import java.net.InetAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The local host's name, for records and {@code _SUCCESS}. */
public final class Hostnames {

  private static final Logger LOG = LoggerFactory.getLogger(Hostnames.class);

  /** What {@link #local()} returns when the name cannot be resolved: {@value}. */
  public static final String UNKNOWN = "unknown";

  private Hostnames() {
  }

  /** The local host's name, or {@value #UNKNOWN} (logged at DEBUG) when it cannot be resolved. */
  public static String local() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException | RuntimeException e) {
      LOG.debug("local host name not resolved: {}", e.toString());
      return UNKNOWN;
    }
  }
}
