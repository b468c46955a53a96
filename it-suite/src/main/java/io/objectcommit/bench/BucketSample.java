package io.objectcommit.bench;

import io.objectcommit.testsupport.PlainS3;
import java.util.List;

/**
 * The soak's view of its bucket at one moment, from ListObjectVersions (so that a deleted object still there as a
 * version would be counted): objects, and the largest directory manifest ({@code .ckpt/dirs/*.json}) by size.
 *
 * @param objects every version and delete marker under the run's prefix
 * @param manifests manifests among them
 * @param largestManifestBytes size of the largest manifest
 * @param largestManifest its key
 */
public record BucketSample(long objects, long manifests, long largestManifestBytes, String largestManifest) {

  static BucketSample of(List<PlainS3.Version> versions) {
    long manifests = 0;
    long largest = 0;
    String largestKey = "";
    for (PlainS3.Version v : versions) {
      if (v.key().contains(".ckpt/dirs/") && v.key().endsWith(".json")) {
        manifests++;
        if (v.size() > largest) {
          largest = v.size();
          largestKey = v.key();
        }
      }
    }
    return new BucketSample(versions.size(), manifests, largest, largestKey);
  }
}
