package io.objectcommit.bench.codecs;

import io.objectcommit.bench.codecs.CodecBenchSettings.Location;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One count of the file's lines by Spark ({@code sc.textFile(path).count()}) in a fresh session.
 *
 * @param format the format read
 * @param location where from
 * @param run the round (1-based)
 * @param partitions the RDD's partitions (Spark's tasks: one per partition)
 * @param wallMs wall time of the count: planning (listing, splits) and every task
 * @param longestTaskMs the longest task's duration (what bounds the wall time on a cluster with a core per task)
 * @param taskCpuNs CPU of the tasks as Spark measures it: {@code executorCpuTime} plus
 *     {@code executorDeserializeCpuTime}, summed over the tasks by a listener (what a cluster's executors spend)
 * @param jvmCpuNs CPU of the whole JVM during the count (tasks, the driver's planning, garbage collection, the
 *     compiler, and on S3 the proxy's threads, which run in this JVM)
 * @param bytesFromS3 bytes the proxy sent to S3A (bodies and headers of every response), 0 on local disk
 * @param requests S3 requests the proxy forwarded, 0 on local disk
 * @param lines the count Spark returned (checked against the text's)
 */
public record Measurement(TextFormat format, Location location, int run, int partitions, long wallMs,
    long longestTaskMs, long taskCpuNs, long jvmCpuNs, long bytesFromS3, long requests, long lines) {

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", format.key());
    m.put("location", location.name().toLowerCase(java.util.Locale.ROOT));
    m.put("run", run);
    m.put("partitions", partitions);
    m.put("wall_ms", wallMs);
    m.put("longest_task_ms", longestTaskMs);
    m.put("task_cpu_ms", taskCpuNs / 1_000_000);
    m.put("jvm_cpu_ms", jvmCpuNs / 1_000_000);
    m.put("bytes_from_s3", bytesFromS3);
    m.put("s3_requests", requests);
    m.put("lines", lines);
    return m;
  }
}
