package io.objectcommit.testsupport.proxy;

/** The kinds of S3 request the proxy tells apart, for counting and for matching fault rules. */
public enum S3Operation {
  /** PutObject. */
  PUT,
  /** GetObject (whole or ranged). */
  GET,
  /** HeadObject. */
  HEAD,
  /** ListObjects (V1) and ListObjectsV2. */
  LIST,
  /** ListObjectVersions ({@code GET /bucket?versions}). */
  LIST_VERSIONS,
  /** CopyObject (PUT with {@code x-amz-copy-source}). */
  COPY,
  /** DeleteObject. */
  DELETE,
  /** DeleteObjects ({@code POST ?delete}). */
  BULK_DELETE,
  /** CreateMultipartUpload ({@code POST ?uploads}). */
  MULTIPART_INITIATE,
  /** UploadPart and UploadPartCopy ({@code PUT ?partNumber&uploadId}). */
  MULTIPART_PART,
  /** CompleteMultipartUpload ({@code POST ?uploadId}). */
  MULTIPART_COMPLETE,
  /** AbortMultipartUpload ({@code DELETE ?uploadId}). */
  MULTIPART_ABORT,
  /** ListMultipartUploads ({@code GET /bucket?uploads}) and ListParts ({@code GET ?uploadId}). */
  MULTIPART_LIST,
  /** Requests on a bucket itself: create, head, delete, location, versioning and other sub-resources. */
  BUCKET,
  /** Anything else: ListBuckets, object ACLs and tagging, requests the proxy does not recognise. */
  OTHER;

  /** True for the operations that make a key exist with new content when they succeed. */
  public boolean writesObject() {
    return this == PUT || this == COPY || this == MULTIPART_COMPLETE;
  }
}
