package io.objectcommit.it.faults;

import io.objectcommit.testsupport.S3IntegrationTest;
import io.objectcommit.testsupport.S3TestBucket;
import io.objectcommit.testsupport.proxy.FaultPlan;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
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
  /** A DStream checkpoint file; object keys of the checkpoint FileSystem carry a "~unique" suffix. */
  private static final Pattern CHECKPOINT = Pattern.compile("checkpoint-(\\d+)(\\.bk)?(~[0-9a-f]+)?$");
  public static final long SEED = 5;
  public static final long CONSISTENT_MS = 2_500;
  public static final long LAGGING_MS = 2_000;

  /** What recovery chose. */
  public static final class Outcome {
    /** Time of the newest checkpoint in the store when the application stopped. */
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

  /** The newest checkpoint file in the directory, listed through the contender's file system while consistent. */
  private long latestIn(String dir, ProxiedBucket proxied) throws IOException {
    Configuration c = new Configuration();
    proxied.s3aOptions().forEach(c::set);
    contender().sparkConf().forEach((k, v) -> {
      if (k.startsWith("spark.hadoop.")) {
        c.set(k.substring("spark.hadoop.".length()), v);
      }
    });
    Path p = new Path(dir);
    List<String> names = new ArrayList<>();
    for (FileStatus st : p.getFileSystem(c).listStatus(p)) {
      names.add(st.getPath().getName());
    }
    return latest(names);
  }

  private static long latest(List<String> keys) {
    long max = -1;
    for (String k : keys) {
      Matcher m = CHECKPOINT.matcher(k);
      if (m.find()) {
        max = Math.max(max, Long.parseLong(m.group(1)));
      }
    }
    return max;
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
      long latestWritten = latestIn(dir, proxied);

      proxied.proxy().setFaults(FaultPlan.builder(SEED).listingInconsistency(Duration.ofSeconds(60)).build());
      Configuration hadoopConf = new Configuration();
      proxied.s3aOptions().forEach(hadoopConf::set);
      contender().sparkConf().forEach((k, v) -> {
        if (k.startsWith("spark.hadoop.")) {
          hadoopConf.set(k.substring("spark.hadoop.".length()), v);
        }
      });
      AtomicBoolean fresh = new AtomicBoolean();
      long recovered = -1;
      Throwable failure = null;
      JavaStreamingContext again = null;
      try {
        again = JavaStreamingContext.getOrCreate(dir, () -> {
          fresh.set(true);
          return new JavaStreamingContext(conf, Durations.milliseconds(500));
        }, hadoopConf);
        Checkpoint cp = again.ssc().initialCheckpoint();
        recovered = fresh.get() || cp == null ? -1 : cp.checkpointTime().milliseconds();
      } catch (Exception e) { // Spark's checked exceptions are not declared by Scala
        failure = e;
      } finally {
        if (again != null) {
          again.stop(true, false);
        }
      }
      Outcome o = new Outcome(latestWritten, recovered, failure);
      LOG.info("{}: DStream recovery under listing inconsistency: {}", contender().name(), o);
      verify(o);
    }
  }
}
