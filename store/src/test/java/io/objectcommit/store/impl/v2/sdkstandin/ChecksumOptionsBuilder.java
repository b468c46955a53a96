package io.objectcommit.store.impl.v2.sdkstandin;

import java.util.List;

/**
 * Stands for the S3 client builder of SDK 2.30 and later, as the SDK ships it: a public interface with the checksum
 * options, implemented by a class outside the caller's package that reflection cannot call through (SDK 2.35's
 * {@code DefaultS3ClientBuilder} is package-private).
 */
public interface ChecksumOptionsBuilder {

  enum Calculation { WHEN_SUPPORTED, WHEN_REQUIRED }

  ChecksumOptionsBuilder requestChecksumCalculation(Calculation c);

  ChecksumOptionsBuilder responseChecksumValidation(Calculation c);

  /** The options set so far, in order. */
  List<String> calls();

  static ChecksumOptionsBuilder create() {
    return new DefaultChecksumOptionsBuilder();
  }
}
