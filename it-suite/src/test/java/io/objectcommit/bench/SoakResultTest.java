package io.objectcommit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The soak's properties, on made-up measurements: flat runs pass, each kind of growth is caught. */
class SoakResultTest {

  private static final SoakResult.Accounting EXACT = new SoakResult.Accounting(400, List.of(), List.of());

  private static final SoakSettings SETTINGS = new SoakSettings(40, List.of("default"), 10, 10, 20, 2, 4, 5,
      "local[2]");

  @Test
  void aFlatRunMeetsEveryProperty() {
    SoakResult r = run(id -> 30, id -> 700, id -> 15_000, id -> 80L << 20, SoakRun.expectedCounts(39));
    assertEquals(List.of(), r.missed(), r.table());
    assertEquals(9, r.checks().size());
    assertTrue(r.table().contains("| PUT requests per micro-batch | 20 | 20 |"), r.table());
  }

  @Test
  void requestsGrowingBeyondFivePercentAreMissed() {
    SoakResult r = run(id -> id < 30 ? 30 : 32, id -> 700, id -> 15_000, id -> 80L << 20,
        SoakRun.expectedCounts(39));
    assertEquals(List.of("S3 requests per micro-batch (mean)"), names(r.missed()), r.table());
    SoakResult more = run(id -> id < 30 ? 30 : 33, id -> 700, id -> 15_000, id -> 80L << 20,
        SoakRun.expectedCounts(39));
    assertEquals(List.of("S3 requests per micro-batch (mean)",
        "S3 writes per micro-batch: PUT, DELETE, BULK_DELETE (mean)"), names(more.missed()), more.table());
    assertEquals(List.of(), names(r.checks(SoakResult.SHARED_MACHINE_REQUEST_TOLERANCE).stream()
        .filter(k -> k.asserted() && !k.met()).toList()), "within a shared machine's tolerance: " + r.table());
    SoakResult much = run(id -> id < 30 ? 30 : 36, id -> 700, id -> 15_000, id -> 80L << 20,
        SoakRun.expectedCounts(39));
    assertEquals(List.of("S3 requests per micro-batch (mean)",
        "S3 writes per micro-batch: PUT, DELETE, BULK_DELETE (mean)"), names(much.checks(
        SoakResult.SHARED_MACHINE_REQUEST_TOLERANCE).stream().filter(k -> k.asserted() && !k.met()).toList()),
        "+20% is beyond a shared machine's tolerance for requests and writes: " + much.table());
    assertTrue(much.table(SoakResult.SHARED_MACHINE_REQUEST_TOLERANCE).contains("| <= 22 (+10%) | **no** |"),
        "the table shows the limits the run is held to: " + much.table(SoakResult.SHARED_MACHINE_REQUEST_TOLERANCE));
  }

  @Test
  void writesFallingAsMaintenanceBatchesItsDeletesAreMetGrowingOnesMissed() {
    // run() makes two thirds of a micro-batch's requests PUTs: 30 -> 27 requests is 20 -> 18 writes, -10%
    SoakResult falling = run(id -> id < 30 ? 30 : 27, id -> 700, id -> 15_000, id -> 80L << 20,
        SoakRun.expectedCounts(39));
    assertEquals(List.of("S3 requests per micro-batch (mean)"), names(falling.missed()), falling.table());
    assertTrue(falling.table().contains("| S3 writes per micro-batch: PUT, DELETE, BULK_DELETE (mean) | 20 | 18 |"),
        falling.table());
  }

  @Test
  void growingManifestsAndHeapAreMissedGrowingObjectsReported() {
    SoakResult r = run(id -> 30, id -> 700 + 10 * id, id -> 15_000 + 100 * id, id -> (80L + id) << 20,
        SoakRun.expectedCounts(39));
    assertEquals(List.of("largest .ckpt/dirs manifest, bytes (max of samples)"), names(r.missed()), r.table());
    SoakResult.Check objects = r.checks().stream().filter(k -> k.name().startsWith("objects in the bucket"))
        .findFirst().orElseThrow();
    assertFalse(objects.met(), "Spark's retention beyond the bound is shown: " + r.table());
    assertFalse(objects.asserted(), "and reported only: " + r.table());
    assertTrue(r.table().contains("no (reported only)"), r.table());
    // 80 + id MiB: 92 MiB first, 117 last, within +32 MiB: met; 4 MiB more per batch is not
    SoakResult heap = run(id -> 30, id -> 700, id -> 15_000, id -> (80L + 4 * id) << 20, SoakRun.expectedCounts(39));
    assertEquals(1, heap.missed().size(), heap.table());
    assertTrue(heap.missed().get(0).name().startsWith("heap after full GC"), heap.table());
  }

  @Test
  void anObjectTheCheckpointDoesNotNameOrAMissingOneIsMissed() {
    SoakResult stray = run(id -> 30, id -> 700, id -> 15_000, id -> 80L << 20, SoakRun.expectedCounts(39),
        new SoakResult.Accounting(400, List.of("soak/query/.ckpt/data/x"), List.of()));
    assertEquals(1, stray.missed().size(), stray.table());
    assertTrue(stray.missed().get(0).name().startsWith("objects after stop not named by the checkpoint"),
        stray.table());
    assertTrue(stray.table().contains("Not named by the checkpoint: soak/query/.ckpt/data/x\n"), stray.table());
    SoakResult missing = run(id -> 30, id -> 700, id -> 15_000, id -> 80L << 20, SoakRun.expectedCounts(39),
        new SoakResult.Accounting(400, List.of(), List.of("offsets/7: data object missing")));
    assertEquals(1, missing.missed().size(), missing.table());
  }

  @Test
  void aNewManifestIsMissed() {
    SoakResult r = run(id -> 30, id -> 700, id -> 15_000, id -> 80L << 20, SoakRun.expectedCounts(39),
        EXACT, id -> id < 30 ? 12 : 13);
    assertEquals(List.of("manifests in the bucket (max of samples; last: and after stop)"), names(r.missed()),
        r.table());
  }

  @Test
  void countsOffByOneAreMissed() {
    Map<Integer, Long> counts = new java.util.TreeMap<>(SoakRun.expectedCounts(39));
    counts.merge(7, 1L, Long::sum);
    SoakResult r = run(id -> 30, id -> 700, id -> 15_000, id -> 80L << 20, counts);
    assertFalse(r.missed().isEmpty());
    assertTrue(r.missed().get(0).name().startsWith("final counts exact"), r.table());
  }

  @Test
  void expectedCountsAreThoseOfTheValuesRead() {
    Map<Integer, Long> m = SoakRun.expectedCounts(0);
    assertEquals(SoakRun.KEYS, m.size());
    assertEquals((long) SoakRun.ROWS_PER_BATCH, m.values().stream().mapToLong(Long::longValue).sum());
    assertEquals(SoakRun.ROWS_PER_BATCH / SoakRun.KEYS, m.get(SoakRun.KEYS - 1));
  }

  @Test
  void settingsParseOverTheDefaultsAndNameABadKey() {
    SoakSettings s = SoakSettings.parse(List.of("batches=500", "state-stores=rocksdb"));
    assertEquals(500, s.batches());
    assertEquals(List.of("rocksdb"), s.stateStores());
    assertEquals(SoakSettings.defaults().warmup(), s.warmup());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SoakSettings.parse(List.of("batches=x")))
        .getMessage().contains("batches"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SoakSettings.parse(List.of("batches=250")))
        .getMessage().contains("warmup + 2 * window"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SoakSettings.parse(List.of("state-stores=x")))
        .getMessage().contains("state-stores"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SoakSettings.parse(List.of("batch=1")))
        .getMessage().contains("batch"));
  }

  private static List<String> names(List<SoakResult.Check> checks) {
    return checks.stream().map(SoakResult.Check::name).collect(Collectors.toList());
  }

  /** Batches 1..39 with the given requests (two thirds PUT), samples every 5 batches. */
  private static SoakResult run(LongUnaryOperator requests, LongUnaryOperator objects, LongUnaryOperator manifest,
      LongUnaryOperator heap, Map<Integer, Long> counts) {
    return run(requests, objects, manifest, heap, counts, EXACT);
  }

  private static SoakResult run(LongUnaryOperator requests, LongUnaryOperator objects, LongUnaryOperator manifest,
      LongUnaryOperator heap, Map<Integer, Long> counts, SoakResult.Accounting accounting) {
    return run(requests, objects, manifest, heap, counts, accounting, id -> 12);
  }

  private static SoakResult run(LongUnaryOperator requests, LongUnaryOperator objects, LongUnaryOperator manifest,
      LongUnaryOperator heap, Map<Integer, Long> counts, SoakResult.Accounting accounting,
      LongUnaryOperator manifests) {
    List<SoakResult.Batch> batches = new ArrayList<>();
    List<SoakResult.Sample> samples = new ArrayList<>();
    for (long id = 1; id < 40; id++) {
      long n = requests.applyAsLong(id);
      batches.add(new SoakResult.Batch(id, 0.5, new Requests(Map.of("PUT", 2 * n / 3, "GET", n - 2 * n / 3), 0)));
      if (id % 5 == 0 || id == 39) {
        samples.add(new SoakResult.Sample(id, heap.applyAsLong(id), new BucketSample(objects.applyAsLong(id),
            manifests.applyAsLong(id),
            manifest.applyAsLong(id), ".ckpt/dirs/x.json")));
      }
    }
    BucketSample end = new BucketSample(objects.applyAsLong(39), manifests.applyAsLong(39), manifest.applyAsLong(39),
        ".ckpt/dirs/x.json");
    return new SoakResult("default", SETTINGS, batches, samples, end, accounting, SoakRun.expectedCounts(39), counts,
        20);
  }
}
