"""The jobs of the cluster scenarios (io.objectcommit.it.cluster), submitted with spark-submit to a standalone
cluster on loopback as a user submits a PySpark job. The test decides the committer and every other setting with
--conf; this file only shapes the data and, through the MARKER directory, tells the test where each task attempt
runs and lets it inject failures.

  cluster_job.py plan PLAN
      the write scenarios listed in the JSON file PLAN, one after the other in this one application (one driver,
      the same executors: the cost of starting them is paid once). Each entry: name, out, markers, rows,
      partitions and optionally sql_conf (session settings for this job only, such as another committer),
      max_records, partition_by, fail_partition, fail_at, slow_partition, slow_seconds,
      pace_ms, pad. Scenario i writes spark.range(rows) in `partitions` partitions, columns id (through a Python
      UDF that records each task attempt and injects the faults), k = id % 10, pad, as Parquet to `out` (mode
      errorifexists). An entry with `stream` ({input, checkpoint, output, provider}) runs one streaming query
      as the stream mode below does instead. Before scenario i > 0 the application waits for the file `go` in
      that scenario's markers directory: the test writes it once it has checked what the previous scenario left
      on local disk.
  cluster_job.py stream INPUT MARKERS --query NAME CHECKPOINT OUTPUT PROVIDER [--query ...]
      one streaming query per --query, all running at once in this one application: file source INPUT (one file
      per micro-batch) -> groupBy(value).count() -> foreachBatch writes each batch's complete result to
      OUTPUT/batch-<id>.json (replaced atomically: a re-run batch rewrites its file); trigger availableNow,
      checkpointed at CHECKPOINT, with the state store PROVIDER (a class name for
      spark.sql.streaming.stateStore.providerClass, or "default": the setting unset, Spark's default). A query
      takes the session's SQL settings when it starts (it runs on a clone of the session), so each query keeps
      its own provider; on a restart Spark takes it from the checkpoint's offset log anyway.

MARKERS/attempt-p<partition>-a<attempt>-t<task attempt id>.json: {partition, attempt, executor_pid}, written when
an attempt starts its first row. MARKERS/result.json: {"status": "ok", "seconds": S} or {"status": "failed",
"exceptions": [Java class names of the failure's cause chain], "seconds": S}. A failed scenario does not stop the
next one. Exit code 0, or 3 when a scenario (or a streaming query) failed.
"""
import argparse
import json
import os
import sys
import time

from pyspark import TaskContext
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T


def write_json(path, data):
    tmp = "%s.tmp-%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def executor_pid():
    """The executor JVM that runs this Python worker: the nearest ancestor running CoarseGrainedExecutorBackend."""
    pid = os.getppid()
    for _ in range(8):
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                if b"CoarseGrainedExecutorBackend" in f.read():
                    return pid
            with open("/proc/%d/stat" % pid) as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return -1


def probe_udf(args):
    per_partition = args.rows // args.partitions
    seen = set()

    def probe(i):
        tc = TaskContext.get()
        p, a, t = tc.partitionId(), tc.attemptNumber(), tc.taskAttemptId()
        if t not in seen:
            seen.add(t)
            write_json(os.path.join(args.markers, "attempt-p%d-a%d-t%d.json" % (p, a, t)),
                       {"partition": p, "attempt": a, "task": t, "executor_pid": executor_pid()})
        if a == 0 and p == args.fail_partition and i - p * per_partition == args.fail_at:
            raise RuntimeError("injected failure: partition %d attempt 0 at row %d" % (p, args.fail_at))
        if a == 0 and p == args.slow_partition:
            time.sleep(args.slow_seconds / per_partition)
        if args.pace_ms:
            time.sleep(args.pace_ms / 1000.0)
        return i

    return F.udf(probe, T.LongType())


def java_exception_classes(e):
    classes = []
    j = getattr(e, "java_exception", None)
    while j is not None and len(classes) < 20:
        classes.append(j.getClass().getName())
        j = j.getCause()
    return classes or [type(e).__name__]


def write(spark, args):
    probe = probe_udf(args)
    df = spark.range(0, args.rows, 1, args.partitions).select(
        probe(F.col("id")).alias("id"), (F.col("id") % 10).alias("k"), F.lit("x" * args.pad).alias("pad"))
    w = df.write.mode("errorifexists")
    if args.max_records:
        w = w.option("maxRecordsPerFile", args.max_records)
    if args.partition_by:
        w = w.partitionBy("k")
    w.parquet(args.out)


SCENARIO_DEFAULTS = {"sql_conf": {}, "max_records": 0, "partition_by": False, "fail_partition": -1, "fail_at": -1,
                     "slow_partition": -1, "slow_seconds": 0.0, "pace_ms": 0.0, "pad": 16, "stream": None}


def run_plan(spark, plan_file):
    with open(plan_file) as f:
        plan = json.load(f)
    failed = 0
    for i, entry in enumerate(plan):
        scenario = argparse.Namespace(**dict(SCENARIO_DEFAULTS, **entry))
        if i > 0:
            go = os.path.join(scenario.markers, "go")
            while not os.path.exists(go):
                time.sleep(0.05)
        t0 = time.time()
        previous = {k: spark.conf.get(k, None) for k in scenario.sql_conf}
        try:
            for k, v in scenario.sql_conf.items():
                spark.conf.set(k, v)
            if scenario.stream:
                q = scenario.stream
                stream(spark, argparse.Namespace(input=q["input"], query=[
                    [scenario.name, q["checkpoint"], q["output"], q.get("provider", "default")]]))
            else:
                write(spark, scenario)
            result = {"status": "ok"}
        except Exception as e:  # reported to the test, which branches on the Java exception types
            result = {"status": "failed", "exceptions": java_exception_classes(e)}
            print("SCENARIO %s FAILED: %r" % (scenario.name, e), file=sys.stderr, flush=True)
            failed += 1
        finally:
            for k, v in previous.items():
                spark.conf.unset(k) if v is None else spark.conf.set(k, v)
        result["seconds"] = round(time.time() - t0, 3)
        write_json(os.path.join(scenario.markers, "result.json"), result)
    return failed == 0


STATE_STORE_PROVIDER = "spark.sql.streaming.stateStore.providerClass"


def batch_writer(output):
    def sink(batch, batch_id):
        rows = {r["key"]: r["count"] for r in batch.collect()}
        write_json(os.path.join(output, "batch-%06d.json" % batch_id), rows)

    return sink


def stream(spark, args):
    queries = []
    for name, checkpoint, output, provider in args.query:
        if provider == "default":
            spark.conf.unset(STATE_STORE_PROVIDER)
        else:
            spark.conf.set(STATE_STORE_PROVIDER, provider)
        counts = (spark.readStream.option("maxFilesPerTrigger", 1).text("file://" + args.input)
                  .groupBy(F.col("value").alias("key")).count())
        queries.append(counts.writeStream.queryName(name).outputMode("complete").foreachBatch(batch_writer(output))
                       .option("checkpointLocation", checkpoint).trigger(availableNow=True).start())
    spark.conf.unset(STATE_STORE_PROVIDER)
    for q in queries:
        q.awaitTermination()


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("plan")
    p.add_argument("plan")
    s = sub.add_parser("stream")
    s.add_argument("input")
    s.add_argument("markers")
    s.add_argument("--query", nargs=4, action="append", required=True,
                   metavar=("NAME", "CHECKPOINT", "OUTPUT", "PROVIDER"))
    args = parser.parse_args()

    spark = SparkSession.builder.appName("objectcommit-cluster-" + args.mode).getOrCreate()
    if args.mode == "plan":
        code = 0 if run_plan(spark, args.plan) else 3
    else:
        try:
            stream(spark, args)
            write_json(os.path.join(args.markers, "result.json"), {"status": "ok"})
            code = 0
        except Exception as e:
            write_json(os.path.join(args.markers, "result.json"),
                       {"status": "failed", "exceptions": java_exception_classes(e)})
            print("JOB FAILED: %r" % (e,), file=sys.stderr, flush=True)
            code = 3
    spark.stop()
    sys.exit(code)


if __name__ == "__main__":
    main()
