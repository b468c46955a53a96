package io.objectcommit.it.faults;

import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.streaming.Checkpoint;
import org.apache.spark.streaming.Durations;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.apache.spark.streaming.api.java.JavaStreamingContext;
import org.apache.spark.streaming.dstream.ConstantInputDStream;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * Scenario: a DStream application checkpoints every 500 ms batch for a few seconds and stops; it is recovered
 * with {@code JavaStreamingContext.getOrCreate} while listings lag: the checkpoint files written in the last part
 * of the run (the proxy's memory is cleared {@value #CONSISTENT_MS} ms in) are missing from LIST results. A
 * subclass names the checkpoint and asserts the {@link Outcome}.
 */
@S3IntegrationTest
public abstract class AbstractDStreamRecoveryIT {

  private static final Logger LOG = LoggerFactory.getLogger(AbstractDStreamRecoveryIT.class);
  public static final long SEED = 5;
  public static final long CONSISTENT_MS = 2_500;
  public static final long LAGGING_MS = 2_000;

  /** What recovery chose. */
  public static final class Outcome {
    /** Time of the checkpoint recovery uses while listings are consistent: the newest one in the store. */
    public final long latestWritten;
    /** Time of the checkpoint recovery used, or -1 if getOrCreate created a fresh context. */
    public final long recovered;
    /** The failure of getOrCreate, or null. */
    public final Throwable failure;

    Outcome(long latestWritten, long recovered, Throwable failure) {
      this.latestWritten = latestWritten;
      this.recovered = recovered;
      this.failure = failure;
    }

    @Override
    public String toString() {
      return "latest checkpoint written " + latestWritten + ", recovered " + (recovered < 0 ? "none (fresh start)"
          : recovered + " (" + (latestWritten - recovered) + " ms older)") + ", failure " + failure;
    }
  }

  protected abstract CheckpointContender contender();

  protected abstract void verify(Outcome outcome);

  private SparkConf conf(ProxiedBucket proxied) {
    SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("dstream-recovery")
        .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.ui.enabled", "false");
    proxied.s3aOptions().forEach((k, v) -> conf.set("spark.hadoop." + k, v));
    contender().sparkConf().forEach(conf::set);
    return conf;
  }

  /** What one {@code getOrCreate} recovered: the checkpoint's time (-1: a fresh context), or its failure. */
  private record Recovery(long time, Throwable failure) {
  }

  private static Recovery recover(String dir, SparkConf conf, Configuration hadoopConf) {
    AtomicBoolean fresh = new AtomicBoolean();
    JavaStreamingContext again = null;
    try {
      again = JavaStreamingContext.getOrCreate(dir, () -> {
        fresh.set(true);
        return new JavaStreamingContext(conf, Durations.milliseconds(500));
      }, hadoopConf);
      Checkpoint cp = again.ssc().initialCheckpoint();
      return new Recovery(fresh.get() || cp == null ? -1 : cp.checkpointTime().milliseconds(), null);
    } catch (Exception e) { // Spark's checked exceptions are not declared by Scala
      return new Recovery(-1, e);
    } finally {
      if (again != null) {
        again.stop(true, false);
      }
    }
  }

  @Test
  void recoverWhileListingsLag(S3TestBucket bucket) throws Exception {
    try (ProxiedBucket proxied = new ProxiedBucket(bucket)) {
      String dir = contender().location(proxied, "dstream/checkpoint");
      SparkConf conf = conf(proxied);
      JavaStreamingContext ssc = new JavaStreamingContext(conf, Durations.milliseconds(500));
      try {
        ssc.checkpoint(dir);
        JavaRDD<Integer> rdd = ssc.sparkContext().parallelize(List.of(1, 2, 3, 4, 5, 6), 2);
        ClassTag<Integer> tag = ClassTag$.MODULE$.apply(Integer.class);
        new JavaDStream<>(new ConstantInputDStream<>(ssc.ssc(), rdd.rdd(), tag), tag)
            .foreachRDD(r -> {
              r.count();
            });
        ssc.start();
        Thread.sleep(CONSISTENT_MS);
        proxied.proxy().forgetHistory();
        Thread.sleep(LAGGING_MS);
      } finally {
        ssc.stop(true, true);
      }
      Configuration hadoopConf = new Configuration();
      proxied.s3aOptions().forEach(hadoopConf::set);
      contender().sparkConf().forEach((k, v) -> {
        if (k.startsWith("spark.hadoop.")) {
          hadoopConf.set(k.substring("spark.hadoop.".length()), v);
        }
      });
      // The reference: what recovery uses while listings are consistent. Not the newest file's name: Spark names
      // a checkpoint file after the newest batch time it has seen, so when its writer lags behind the batches
      // (a loaded machine) the newest file holds an older batch's checkpoint.
      Recovery consistent = recover(dir, conf, hadoopConf);
      if (consistent.failure != null) {
        throw new AssertionError("recovery with consistent listings failed", consistent.failure);
      }

      proxied.proxy().setFaults(FaultPlan.builder(SEED).listingInconsistency(Duration.ofSeconds(60)).build());
      Recovery lagging = recover(dir, conf, hadoopConf);
      long latestWritten = consistent.time;
      long recovered = lagging.time;
      Throwable failure = lagging.failure;
      Outcome o = new Outcome(latestWritten, recovered, failure);
      LOG.info("{}: DStream recovery under listing inconsistency: {}", contender().name(), o);
      verify(o);
    }
  }
}
