package io.objectcommit.codecs.impl;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An object written as a stream in parts of a fixed size, holding one part in memory: no larger than one part, it is
 * one PUT at {@link #complete}; larger, a multipart upload started when the first part is full, whose completion
 * carries the write condition. Nothing is visible at the key before {@link #complete}; {@link #abort} (or a failed
 * completion) aborts the upload.
 */
public final class StoreUpload extends OutputStream {

  private static final Logger LOG = LoggerFactory.getLogger(StoreUpload.class);

  private final ObjectStore store;
  private final String key;
  private final byte[] part;
  private int count;
  private MultipartUpload upload;
  private final List<UploadedPart> parts = new ArrayList<>();
  private boolean ended;

  public StoreUpload(ObjectStore store, String key, int partSize) {
    this.store = store;
    this.key = key;
    this.part = new byte[partSize];
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (ended) {
      throw new IOException(store.pathOf(key) + ": write after the upload ended");
    }
    while (len > 0) {
      if (count == part.length) {
        // a full part is sent only when more bytes follow, so that the last part is never empty
        sendPart();
      }
      int n = Math.min(len, part.length - count);
      System.arraycopy(b, off, part, count, n);
      count += n;
      off += n;
      len -= n;
    }
  }

  private void sendPart() throws IOException {
    try {
      if (upload == null) {
        upload = store.initiateMultipartUpload(key);
      }
      parts.add(store.uploadPart(upload, parts.size() + 1, Payload.of(part, 0, count)));
      count = 0;
    } catch (IOException | RuntimeException e) {
      abort();
      throw e;
    }
  }

  /** Makes the object visible under {@code condition}; a refused condition aborts the upload and is thrown. */
  public ObjectInfo complete(WriteCondition condition) throws IOException {
    if (ended) {
      throw new IOException(store.pathOf(key) + ": the upload already ended");
    }
    if (upload == null) {
      ended = true;
      return store.put(key, Payload.of(part, 0, count), condition);
    }
    try {
      sendPart();
      ended = true;
      return store.completeMultipartUpload(upload, parts, condition);
    } catch (IOException | RuntimeException e) {
      abort();
      throw e;
    }
  }

  /** Aborts the multipart upload, if one was started; never throws (logs). */
  public void abort() {
    if (ended && upload == null) {
      return;
    }
    ended = true;
    if (upload != null) {
      MultipartUpload u = upload;
      upload = null;
      try {
        store.abortMultipartUpload(u);
      } catch (IOException | RuntimeException e) {
        LOG.warn("{}: could not abort the multipart upload {} (objectcommit uploads lists and aborts it): {}",
            store.pathOf(key), u.uploadId(), e.toString());
      }
    }
  }

  /** The number of parts uploaded so far. */
  int partsSent() {
    return parts.size();
  }
}
