package io.objectcommit.fs.impl;

import static io.objectcommit.fs.impl.S3Requests.isStatus;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_MULTIPART_ABORT;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_MULTIPART_COMPLETE;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_MULTIPART_INITIATE;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_MULTIPART_LIST;
import static io.objectcommit.fs.statistics.StoreStatisticNames.OP_MULTIPART_PART;

import com.amazonaws.AmazonServiceException;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.AbortMultipartUploadRequest;
import com.amazonaws.services.s3.model.CompleteMultipartUploadRequest;
import com.amazonaws.services.s3.model.CompleteMultipartUploadResult;
import com.amazonaws.services.s3.model.InitiateMultipartUploadRequest;
import com.amazonaws.services.s3.model.ListMultipartUploadsRequest;
import com.amazonaws.services.s3.model.MultipartUploadListing;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PartETag;
import com.amazonaws.services.s3.model.UploadPartRequest;
import io.objectcommit.fs.MultipartUpload;
import io.objectcommit.fs.ObjectInfo;
import io.objectcommit.fs.Payload;
import io.objectcommit.fs.UploadedPart;
import io.objectcommit.fs.WriteCondition;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
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
  private final EncryptionSettings encryption;
  private final long partSize;

  MultipartWriter(S3Requests requests, StoreOptions options) {
    this.requests = requests;
    this.encryption = requests.encryption();
    this.partSize = options.multipartSize();
  }

  MultipartUpload initiate(String key, String writeId) throws IOException {
    String uploadId = requests.send(OP_MULTIPART_INITIATE, requests.pathOf(key), (s3, attempt) -> {
      ObjectMetadata md = new ObjectMetadata();
      md.addUserMetadata(S3Requests.WRITE_ID, writeId);
      InitiateMultipartUploadRequest req = new InitiateMultipartUploadRequest(requests.bucket(), key, md);
      encryption.applyTo(req);
      return s3.initiateMultipartUpload(req).getUploadId();
    });
    return new MultipartUpload(key, uploadId, System.currentTimeMillis());
  }

  UploadedPart uploadPart(MultipartUpload upload, int partNumber, Payload part) throws IOException {
    if (part instanceof Payload.FilePayload) {
      Payload.FilePayload f = (Payload.FilePayload) part;
      return uploadFilePart(upload, partNumber, f.file(), f.offset(), f.length());
    }
    Payload repeatable = part;
    if (!part.isRepeatable()) {
      byte[] all = part.open().readAllBytes(); // a part must be repeatable to be retried
      repeatable = Payload.of(all);
    }
    Payload p = repeatable;
    long length = p.length();
    return requests.send(OP_MULTIPART_PART, requests.pathOf(upload.key()), (s3, attempt) -> {
      UploadPartRequest req = newPartRequest(upload, partNumber, length).withInputStream(p.open());
      return send(s3, req, partNumber, length);
    });
  }

  private UploadedPart uploadFilePart(MultipartUpload upload, int partNumber, Path file, long offset, long length)
      throws IOException {
    return requests.send(OP_MULTIPART_PART, requests.pathOf(upload.key()), (s3, attempt) -> {
      UploadPartRequest req = newPartRequest(upload, partNumber, length).withFile(file.toFile())
          .withFileOffset(offset);
      return send(s3, req, partNumber, length);
    });
  }

  private UploadPartRequest newPartRequest(MultipartUpload upload, int partNumber, long length) {
    UploadPartRequest req = new UploadPartRequest().withBucketName(requests.bucket()).withKey(upload.key())
        .withUploadId(upload.uploadId()).withPartNumber(partNumber).withPartSize(length);
    encryption.applyTo(req);
    return req;
  }

  private UploadedPart send(AmazonS3 s3, UploadPartRequest req, int partNumber, long length) {
    String etag = s3.uploadPart(req).getPartETag().getETag();
    requests.statistics().recordBytes(OP_MULTIPART_PART, length);
    return new UploadedPart(partNumber, etag, length);
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
      CompleteMultipartUploadRequest req = new CompleteMultipartUploadRequest(requests.bucket(), upload.key(),
          upload.uploadId(), sorted.stream().map(p -> new PartETag(p.partNumber(), p.etag()))
          .collect(Collectors.toList()));
      WriteConditions.applyTo(req, condition);
      CompleteMultipartUploadResult r = s3.completeMultipartUpload(req);
      return new ObjectInfo(upload.key(), size, r.getETag(), 0);
    }, (e, attempt) -> {
      boolean noUpload = e instanceof AmazonServiceException
          && "NoSuchUpload".equals(((AmazonServiceException) e).getErrorCode());
      boolean refused = isStatus(e, 412) || (condition.kind() == WriteCondition.Kind.IF_MATCH && isStatus(e, 404)
          && !noUpload);
      if (attempt > 0 && (refused || noUpload)) {
        // An earlier attempt may have completed the upload: then the object is ours, with the ETag S3 gives a
        // multipart object of exactly these parts.
        String expected = MultipartEtag.of(sorted);
        Optional<ObjectMetadata> md = requests.head(upload.key());
        if (expected != null && md.isPresent()
            && expected.equals(S3Requests.info(upload.key(), md.get()).etag())) {
          LOG.debug("{}: a retried completion found the upload completed by an earlier attempt", path);
          return S3Requests.info(upload.key(), md.get());
        }
      }
      if (refused && condition.isConditional()) {
        IOException r = WriteConditions.refusal(path, "complete multipart upload", condition,
            isStatus(e, 404));
        r.initCause(e);
        throw r;
      }
      return null;
    });
  }

  void abort(MultipartUpload upload) throws IOException {
    requests.send(OP_MULTIPART_ABORT, requests.pathOf(upload.key()), (s3, attempt) -> {
      s3.abortMultipartUpload(new AbortMultipartUploadRequest(requests.bucket(), upload.key(), upload.uploadId()));
      return Boolean.TRUE;
    }, (e, attempt) -> isStatus(e, 404) ? Boolean.TRUE : null); // already gone: aborted or completed
  }

  List<MultipartUpload> list(String prefix) throws IOException {
    List<MultipartUpload> all = new ArrayList<>();
    String[] markers = {null, null};
    boolean more = true;
    while (more) {
      MultipartUploadListing page = requests.send(OP_MULTIPART_LIST, requests.pathOf(prefix), (s3, attempt) -> {
        ListMultipartUploadsRequest req = new ListMultipartUploadsRequest(requests.bucket()).withPrefix(prefix)
            .withKeyMarker(markers[0]).withUploadIdMarker(markers[1]);
        return s3.listMultipartUploads(req);
      });
      page.getMultipartUploads().forEach(u -> all.add(new MultipartUpload(u.getKey(), u.getUploadId(),
          u.getInitiated() == null ? 0 : u.getInitiated().getTime())));
      more = page.isTruncated();
      markers[0] = page.getNextKeyMarker();
      markers[1] = page.getNextUploadIdMarker();
    }
    return all;
  }

  /** Uploads a repeatable payload (bytes or file) at or above the threshold as a multipart upload. */
  ObjectInfo upload(String key, Payload payload, WriteCondition condition) throws IOException {
    MultipartUpload upload = initiate(key, java.util.UUID.randomUUID().toString());
    return uploadAll(upload, condition, parts -> {
      long length = payload.length();
      int n = 1;
      for (long off = 0; off < length; off += partSize, n++) {
        long len = Math.min(partSize, length - off);
        if (payload instanceof Payload.FilePayload) {
          Payload.FilePayload f = (Payload.FilePayload) payload;
          parts.add(uploadFilePart(upload, n, f.file(), f.offset() + off, len));
        } else {
          Payload.Bytes b = (Payload.Bytes) payload;
          parts.add(uploadPart(upload, n, Payload.of(b.array(), b.offset() + (int) off, (int) len)));
        }
      }
    });
  }

  /** Uploads a stream whose first bytes are already buffered, one part in memory at a time. */
  ObjectInfo upload(String key, BufferedStart start, InputStream rest, WriteCondition condition) throws IOException {
    MultipartUpload upload = initiate(key, java.util.UUID.randomUUID().toString());
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
