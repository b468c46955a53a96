package io.objectcommit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchSettingsTest {

  @Test
  void noArgumentsIsTheShortPreset() {
    assertEquals(BenchSettings.preset(BenchSettings.SHORT), BenchSettings.parse(List.of()));
  }

  @Test
  void overridesApplyOnTopOfThePreset() {
    BenchSettings s = BenchSettings.parse(List.of("full", "latency-ms=5", "batches=7", "partitions=8, 16",
        "master=local[4]", "nfs-latency-ms=0.5"));
    assertEquals("full", s.mode());
    assertEquals(0.5, s.nfsLatencyMs());
    assertEquals(BenchSettings.NFS_LATENCY_MS_DEFAULT, BenchSettings.preset(BenchSettings.SHORT).nfsLatencyMs());
    assertEquals(5, s.latencyMs());
    assertEquals(7, s.measuredBatches());
    assertEquals(List.of(8, 16), s.shufflePartitions());
    assertEquals("local[4]", s.master());
    assertEquals(BenchSettings.preset(BenchSettings.FULL).writeShapes(), s.writeShapes());
  }

  @Test
  void sparkSettingsAreKeptThroughOtherOverrides() {
    BenchSettings s = BenchSettings.parse(List.of("spark.sql.streaming.checkpoint.fileChecksum.enabled=false",
        "partitions=40", "writes=false", "spark.sql.shuffle.partitions=7"));
    assertEquals(Map.of("spark.sql.streaming.checkpoint.fileChecksum.enabled", "false",
        "spark.sql.shuffle.partitions", "7"), s.sparkConf());
    assertEquals(List.of(40), s.shufflePartitions());
    assertTrue(s.writeShapes().isEmpty());
    assertEquals(s.sparkConf(), s.describe().get("sparkConf"));
    assertTrue(BenchSettings.parse(List.of()).sparkConf().isEmpty());
  }

  @Test
  void stateStoresAreChosenByNameInTheirOrderAndDefaultToSparksOwn() {
    assertEquals(List.of(StateStoreChoice.DEFAULT), BenchSettings.parse(List.of("full")).stateStores());
    BenchSettings s = BenchSettings.parse(List.of("state-stores=default, rocksdb,rocksdb-changelog,rocksdb",
        "spark.x=1", "batches=2"));
    assertEquals(List.of(StateStoreChoice.DEFAULT, StateStoreChoice.ROCKSDB, StateStoreChoice.ROCKSDB_CHANGELOG),
        s.stateStores());
    assertEquals(List.of("default", "rocksdb", "rocksdb-changelog"), s.describe().get("stateStores"));
    assertEquals(Map.of("spark.x", "1"), s.sparkConf());
    assertEquals(StateStoreChoice.ROCKSDB_PROVIDER,
        StateStoreChoice.ROCKSDB_CHANGELOG.sparkConf().get("spark.sql.streaming.stateStore.providerClass"));
    assertEquals("true", StateStoreChoice.ROCKSDB_CHANGELOG.sparkConf()
        .get("spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"));
    assertTrue(StateStoreChoice.DEFAULT.sparkConf().isEmpty());
  }

  @Test
  void aStateStoreThatIsUnknownOrNeedsANewerSparkNamesTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BenchSettings.parse(List.of("state-stores=leveldb")));
    assertTrue(e.getMessage().contains("state-stores") && e.getMessage().contains("leveldb")
        && e.getMessage().contains("rocksdb-changelog-v2"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse(List.of("state-stores=")));
    e = assertThrows(IllegalArgumentException.class,
        () -> StateStoreChoice.ROCKSDB_CHANGELOG_V2.requireSpark("3.5.8"));
    assertTrue(e.getMessage().contains("state-stores") && e.getMessage().contains("3.5.8"), e.getMessage());
    StateStoreChoice.ROCKSDB_CHANGELOG_V2.requireSpark("4.0.2");
    StateStoreChoice.ROCKSDB_CHANGELOG.requireSpark("3.5.8");
  }

  @Test
  void partsCanBeLeftOut() {
    BenchSettings s = BenchSettings.parse(List.of("writes=false", "partitions="));
    assertTrue(s.writeShapes().isEmpty());
    assertTrue(s.shufflePartitions().isEmpty());
  }

  @Test
  void badInputNamesTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BenchSettings.parse(List.of("batches=many")));
    assertTrue(e.getMessage().contains("batches"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse(List.of("speed=11")));
    assertTrue(e.getMessage().contains("speed"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse(List.of("medium")));
    assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse(List.of("writes=maybe")));
  }

  @Test
  void shapesAreConsistent() {
    WriteShape s = new WriteShape("x", 1000, 20, 800);
    assertEquals(50, s.filesPerTask());
    assertEquals(800_000, s.rows());
    assertThrows(IllegalArgumentException.class, () -> new WriteShape("bad", 1000, 30, 800));
  }

  @Test
  void commitLineIsParsed() {
    assertEquals(1234, CommitTimeLog.parse(
        "Write Job 5b2c8d4e-0f1a-4b7e-9c3d-2a1b0c9d8e7f committed. Elapsed time: 1234 ms."));
    assertEquals(-1, CommitTimeLog.parse("Finished processing stats for write job 5b2c8d4e."));
  }
}
