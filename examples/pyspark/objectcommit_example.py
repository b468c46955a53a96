"""objectcommit from PySpark: a direct-committer write, a staging-committer write and a stateful streaming query
checkpointed on ckpt://, each checked for exact results (rows read back, no duplicates, exact counts across a
restart). Prints one PASS/FAIL line per check and a summary; exits 1 on any mismatch.

Run by examples/run-pyspark-example (which starts LocalStack and passes the S3 settings to spark-submit):

    spark-submit --jars objectcommit-spark-runtime-3.5_2.12-<version>.jar \
      --packages org.apache.hadoop:hadoop-aws:3.3.4 \
      --conf spark.hadoop.fs.s3a.endpoint=... (and the keys, path style, region) \
      --conf spark.hadoop.fs.ckpt.impl=io.objectcommit.checkpoint.CheckpointFileSystem \
      --conf spark.hadoop.fs.AbstractFileSystem.ckpt.impl=io.objectcommit.checkpoint.CheckpointFs \
      --conf spark.sql.streaming.checkpointFileManagerClass=io.objectcommit.checkpoint.CheckpointFileManagerImpl \
      objectcommit_example.py BUCKET WORK_DIR
"""
import json
import os
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append((name, bool(ok)))
    print("%s  %s%s" % ("PASS" if ok else "FAIL", name, ("  (" + detail + ")") if detail else ""), flush=True)


def success_marker(spark, path):
    """The JSON _SUCCESS the committers write (S3A SuccessData fields), read through Hadoop's FileSystem API
    (Spark's readers skip files whose names start with '_')."""
    jvm = spark.sparkContext._jvm
    p = jvm.org.apache.hadoop.fs.Path(path + "/_SUCCESS")
    stream = p.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).open(p)
    try:
        text = jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8")
    finally:
        stream.close()
    return json.loads(text)


def rows(spark, n, salt):
    return spark.range(0, n, 1, 4).select(
        F.col("id"), (F.col("id") % 5).cast("string").alias("k"), F.lit(salt).alias("run"))


def direct_write(spark, bucket):
    """Parquet through the direct committer and its commit protocol (the settings are per write)."""
    path = "s3a://%s/tables/direct" % bucket
    spark.conf.set("spark.sql.parquet.output.committer.class",
                   "io.objectcommit.direct.DirectParquetOutputCommitter")
    spark.conf.set("spark.sql.sources.commitProtocolClass", "io.objectcommit.direct.spark.DirectCommitProtocol")
    try:
        rows(spark, 1000, "direct").write.mode("errorifexists").parquet(path)
    finally:
        spark.conf.unset("spark.sql.parquet.output.committer.class")
        spark.conf.unset("spark.sql.sources.commitProtocolClass")
    back = spark.read.parquet(path)
    n, distinct = back.count(), back.select("id").distinct().count()
    check("direct write: 1000 rows read back, no duplicates", n == 1000 and distinct == 1000,
          "rows %d, distinct ids %d" % (n, distinct))
    files = back.select(F.input_file_name().alias("f")).distinct().count()
    check("direct write: one file per task (4), none left by other attempts", files == 4, "%d files" % files)
    marker = success_marker(spark, path)
    check("direct write: _SUCCESS written by the direct committer", marker.get("committer") == "objectcommit-direct",
          "committer %r" % marker.get("committer"))


def staging_write(spark, bucket):
    """Partitioned Parquet through the staging committer's commit protocol: append twice, then overwrite."""
    path = "s3a://%s/tables/staging" % bucket
    spark.conf.set("spark.sql.sources.commitProtocolClass",
                   "io.objectcommit.staging.spark.StagingCommitProtocol")
    try:
        rows(spark, 1000, "first").write.mode("append").partitionBy("k").parquet(path)
        rows(spark, 1000, "second").write.mode("append").partitionBy("k").parquet(path)
        appended = spark.read.parquet(path)
        n, distinct = appended.count(), appended.select("id", "run").distinct().count()
        check("staging write: two appends give 2000 rows, no duplicates", n == 2000 and distinct == 2000,
              "rows %d, distinct (id, run) %d" % (n, distinct))
        parts = sorted(str(r.k) for r in appended.select("k").distinct().collect())
        check("staging write: partitions k=0..4", parts == ["0", "1", "2", "3", "4"], str(parts))
        rows(spark, 1000, "third").write.mode("overwrite").partitionBy("k").parquet(path)
    finally:
        spark.conf.unset("spark.sql.sources.commitProtocolClass")
    final = spark.read.parquet(path)
    runs = sorted(r.run for r in final.select("run").distinct().collect())
    n = final.count()
    check("staging write: overwrite replaces the old data", n == 1000 and runs == ["third"],
          "rows %d, runs %s" % (n, runs))


def streaming(spark, bucket, work_dir):
    """groupBy count over a file source, checkpointed on ckpt://: 3 micro-batches, a restart, 2 more, exact."""
    source = os.path.join(work_dir, "stream-input")
    os.makedirs(source, exist_ok=True)
    checkpoint = "ckpt://%s/checkpoints/counts" % bucket

    def add_file(i):
        # file i holds keys a, b, c: i+1 rows of 'a', 1 row of 'b', 2 rows of 'c'
        lines = ["a"] * (i + 1) + ["b"] + ["c"] * 2
        tmp = os.path.join(source, ".part-%d.tmp" % i)
        with open(tmp, "w") as f:
            f.write("\n".join(lines) + "\n")
        os.rename(tmp, os.path.join(source, "part-%d.txt" % i))  # the file source sees complete files only

    def run_query():
        counts = (spark.readStream.option("maxFilesPerTrigger", 1).text("file://" + source)
                  .groupBy(F.col("value").alias("key")).count())
        q = (counts.writeStream.outputMode("complete").format("memory").queryName("counts")
             .option("checkpointLocation", checkpoint).trigger(availableNow=True).start())
        q.awaitTermination(600)
        batches = [p["batchId"] for p in q.recentProgress if p.get("numInputRows", 0) > 0]
        q.stop()
        return {r.key: r["count"] for r in spark.table("counts").collect()}, batches

    def expected(n):
        return {"a": sum(i + 1 for i in range(n)), "b": n, "c": 2 * n}

    for i in range(3):
        add_file(i)
    got, batches = run_query()
    check("streaming: 3 micro-batches counted exactly", got == expected(3) and batches == [0, 1, 2],
          "counts %s, batches %s" % (got, batches))

    for i in range(3, 5):  # the query restarts from its ckpt:// checkpoint: state and offsets recovered
        add_file(i)
    got, batches = run_query()
    check("streaming: after a restart, 2 more micro-batches, state recovered, nothing counted twice",
          got == expected(5) and batches == [3, 4], "counts %s, batches %s" % (got, batches))


def main():
    bucket, work_dir = sys.argv[1], sys.argv[2]
    spark = SparkSession.builder.appName("objectcommit-pyspark-example").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    steps = [("direct committer write", lambda: direct_write(spark, bucket)),
             ("staging committer write", lambda: staging_write(spark, bucket)),
             ("streaming query on ckpt://", lambda: streaming(spark, bucket, work_dir))]
    for name, step in steps:
        t0 = time.time()
        try:
            step()
        except Exception as e:  # a failed step is a FAIL line, and the next steps still run
            check(name + ": ran without error", False, "%s: %s" % (type(e).__name__, str(e).splitlines()[0]))
        print("      %s: %.1f s" % (name, time.time() - t0), flush=True)
    spark.stop()
    failed = [n for n, ok in RESULTS if not ok]
    print("SUMMARY: %s: %d of %d checks passed" % ("PASS" if not failed else "FAIL", len(RESULTS) - len(failed),
                                                    len(RESULTS)), flush=True)
    for n in failed:
        print("  failed: " + n)
    return 1 if failed or not RESULTS else 0


if __name__ == "__main__":
    sys.exit(main())
