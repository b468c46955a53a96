package io.objectcommit.store;

import java.io.IOException;

/**
 * The AWS SDK that objectcommit needs (forced with {@value StoreConstants#SDK}, or any when set to {@code auto})
 * is not on the classpath. Names the key, the value in force and what to add.
 */
public class SdkMissingException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String key;
  private final String value;

  public SdkMissingException(String message, String key, String value) {
    super(message);
    this.key = key;
    this.value = value;
  }

  /** The configuration key in force (the per-bucket one when set there). */
  public String key() {
    return key;
  }

  /** Its value: {@code auto}, {@code v1} or {@code v2}. */
  public String value() {
    return value;
  }
}
