package io.objectcommit.store.impl;

import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_ABORT;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_COMPLETE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_INITIATE;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_LIST;
import static io.objectcommit.store.statistics.StoreStatisticNames.OP_MULTIPART_PART;

import io.objectcommit.store.MultipartUpload;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.Payload;
import io.objectcommit.store.UploadedPart;
import io.objectcommit.store.WriteCondition;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Multipart uploads: the single operations, and whole uploads of large payloads (parts of the configured size,
 * sent one after another, so at most one part of a stream is in memory; aborted if anything fails). Sends its
 * requests through {@link S3Requests} only.
 */
final class MultipartWriter {

  private static final Logger LOG = LoggerFactory.getLogger(MultipartWriter.class);

  private final S3Requests requests;
  private final long partSize;

  MultipartWriter(S3Requests requests, StoreOptions options) {
    this.requests = requests;
    this.partSize = options.multipartSize();
  }

  MultipartUpload initiate(String key, String writeId) throws IOException {
    String uploadId = requests.send(OP_MULTIPART_INITIATE, requests.pathOf(key),
        (s3, attempt) -> s3.initiateMultipart(key, writeId));
    return new MultipartUpload(key, uploadId, System.currentTimeMillis());
  }

  UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
    Payload p = part;
    if (!part.isRepeatable()) {
      p = Payload.of(part.open().readAllBytes()); // a part must be repeatable to be retried
    }
    return sendPart(upload, partNumber, p);
  }

  private UploadedPart sendPart(MultipartUpload upload, int partNumber, Payload p) throws IOException {
    long length = p.length();
    return requests.send(OP_MULTIPART_PART, requests.pathOf(upload.key()), (s3, attempt) -> {
      String etag = s3.uploadPart(upload.key(), upload.uploadId(), partNumber, p);
      requests.statistics().recordBytes(OP_MULTIPART_PART, length);
      return new UploadedPart(partNumber, etag, length);
    });
  }

  ObjectInfo complete(MultipartUpload upload, List<UploadedPart> parts, WriteCondition condition)
      throws IOException {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException(upload + ": cannot complete an upload with no parts");
    }
    List<UploadedPart> sorted = new ArrayList<>(parts);
    sorted.sort(Comparator.comparingInt(UploadedPart::partNumber));
    long size = sorted.stream().mapToLong(UploadedPart::size).sum();
    String path = requests.pathOf(upload.key());
    return requests.send(OP_MULTIPART_COMPLETE, path, (s3, attempt) -> {
      String etag = s3.completeMultipart(upload.key(), upload.uploadId(), sorted, condition);
      return new ObjectInfo(upload.key(), size, etag, 0);
    }, (e, attempt) -> {
      boolean noUpload = e.isStatus(404) && "NoSuchUpload".equals(e.errorCode());
      boolean refused = e.isStatus(412) || (condition.kind() == WriteCondition.Kind.IF_MATCH && e.isStatus(404)
          && !noUpload);
      if (attempt > 0 && (refused || noUpload)) {
        // An earlier attempt may have completed the upload: then the object is ours, with the ETag S3 gives a
        // multipart object of exactly these parts.
        String expected = MultipartEtag.of(sorted);
        Optional<S3Calls.ObjectHead> md = requests.head(upload.key());
        if (expected != null && md.isPresent() && expected.equals(md.get().info().etag())) {
          LOG.debug("{}: a retried completion found the upload completed by an earlier attempt", path);
          return md.get().info();
        }
      }
      if (refused && condition.isConditional()) {
        IOException r = condition.refusedAt(path, "complete multipart upload", e.isStatus(404));
        r.initCause(e);
        throw r;
      }
      return null;
    });
  }

  void abort(MultipartUpload upload) throws IOException {
    requests.send(OP_MULTIPART_ABORT, requests.pathOf(upload.key()), (s3, attempt) -> {
      s3.abortMultipart(upload.key(), upload.uploadId());
      return Boolean.TRUE;
    }, (e, attempt) -> e.isStatus(404) ? Boolean.TRUE : null); // already gone: aborted or completed
  }

  List<MultipartUpload> list(String prefix) throws IOException {
    List<MultipartUpload> all = new ArrayList<>();
    String[] markers = {null, null};
    boolean more = true;
    while (more) {
      S3Calls.UploadsPage page = requests.send(OP_MULTIPART_LIST, requests.pathOf(prefix),
          (s3, attempt) -> s3.listMultipartUploads(prefix, markers[0], markers[1]));
      all.addAll(page.uploads());
      more = page.truncated();
      markers[0] = page.nextKeyMarker();
      markers[1] = page.nextUploadIdMarker();
    }
    return all;
  }

  /** Uploads a repeatable payload (bytes or file) at or above the threshold as a multipart upload. */
  ObjectInfo upload(String key, Payload payload, WriteCondition condition) throws IOException {
    MultipartUpload upload = initiate(key, UUID.randomUUID().toString());
    return uploadAll(upload, condition, parts -> {
      long length = payload.length();
      int n = 1;
      for (long off = 0; off < length; off += partSize, n++) {
        long len = Math.min(partSize, length - off);
        if (payload instanceof Payload.FilePayload) {
          Payload.FilePayload f = (Payload.FilePayload) payload;
          parts.add(sendPart(upload, n, Payload.of(f.file(), f.offset() + off, len)));
        } else {
          Payload.Bytes b = (Payload.Bytes) payload;
          parts.add(uploadPart(upload, n, Payload.of(b.array(), b.offset() + (int) off, (int) len)));
        }
      }
    });
  }

  /** Uploads a stream whose first bytes are already buffered, one part in memory at a time. */
  ObjectInfo upload(String key, BufferedStart start, InputStream rest, WriteCondition condition) throws IOException {
    MultipartUpload upload = initiate(key, UUID.randomUUID().toString());
    return uploadAll(upload, condition, parts -> {
      try (InputStream in = new SequenceInputStream(
          new ByteArrayInputStream(start.buffer(), 0, start.length()), rest)) {
        byte[] buf = new byte[(int) partSize];
        for (int n = 1; ; n++) {
          int len = in.readNBytes(buf, 0, buf.length);
          if (len == 0 && n > 1) {
            break;
          }
          parts.add(uploadPart(upload, n, Payload.of(buf, 0, len)));
          if (len < buf.length) {
            break;
          }
        }
      }
    });
  }

  private interface PartSender {
    void sendAll(List<UploadedPart> parts) throws IOException;
  }

  private ObjectInfo uploadAll(MultipartUpload upload, WriteCondition condition, PartSender sender)
      throws IOException {
    List<UploadedPart> parts = new ArrayList<>();
    try {
      sender.sendAll(parts);
      return complete(upload, parts, condition);
    } catch (IOException | RuntimeException | Error e) {
      try {
        abort(upload);
      } catch (IOException | RuntimeException abortFailure) {
        e.addSuppressed(abortFailure);
      }
      throw e;
    }
  }
}
