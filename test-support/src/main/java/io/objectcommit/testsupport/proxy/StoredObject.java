package io.objectcommit.testsupport.proxy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A whole object as the store returned it: its bytes and the response headers that describe it. Immutable. */
final class StoredObject {

  private final byte[] bytes;
  private final Map<String, String> headers;

  StoredObject(byte[] bytes, Map<String, String> headers) {
    this.bytes = bytes.clone();
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  byte[] bytes() {
    return bytes.clone();
  }

  int length() {
    return bytes.length;
  }

  /** Content-Type, ETag, Last-Modified and x-amz-meta-* headers, names in lower case. */
  Map<String, String> headers() {
    return headers;
  }
}
