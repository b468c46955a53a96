package io.objectcommit.bench;

import java.util.Map;

/**
 * One contender's write of one shape.
 *
 * @param shape the write's shape label
 * @param files Parquet files the write was to produce (and did: the runner checks it)
 * @param contender the committer's name
 * @param jobMs wall time of the write action, job setup to job commit
 * @param commitMs Spark's job commit time (FileFormatWriter's "Write Job ... committed. Elapsed time")
 * @param requests S3 requests the write sent
 */
public record WriteResult(String shape, int files, String contender, long jobMs, long commitMs, Requests requests) {

  /** Requests per file written. */
  public double requestsPerFile() {
    return requests.total() / (double) files;
  }

  /** Puts this write's numbers into a report's JSON object (both reports name them the same). */
  void putNumbers(Map<String, Object> r) {
    r.put("jobMs", jobMs);
    r.put("commitMs", commitMs);
    r.put("requests", requests.total());
    r.put("requestsPerFile", requestsPerFile());
    r.put("requestsByOperation", requests.byOperation());
    r.put("notFound", requests.notFound());
  }
}
