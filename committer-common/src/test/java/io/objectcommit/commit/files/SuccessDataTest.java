package io.objectcommit.commit.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.objectcommit.store.files.JsonRecordCodec;
import io.objectcommit.store.statistics.StoreStatisticNames;
import io.objectcommit.store.statistics.StoreStatistics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SuccessDataTest {

  private static SuccessData sample() {
    SuccessData s = new SuccessData();
    s.setTimestamp(1_700_000_000_000L);
    s.setDate("Tue Nov 14 22:13:20 UTC 2023");
    s.setHostname("driver-1");
    s.setCommitter("direct");
    s.setDescription("committed 2 files");
    s.setJobId("6f1c0e0e-2a4b-4c51-9a5e-7f0f3b3b1c11");
    s.setJobIdSource("spark.sql.sources.writeJobUUID");
    s.setMetrics(Map.of(SuccessData.METRIC_FILES_COMMITTED, 2L));
    s.setDiagnostics(Map.of("tasks", "1"));
    s.setFilenames(List.of("/table/part-00000-x-c000.parquet", "/table/part-00000-x-c001.parquet"));
    StoreStatistics st = new StoreStatistics();
    st.recordRequest(StoreStatisticNames.OP_PUT, 12, false);
    st.recordRequest(StoreStatisticNames.OP_PUT, 8, false);
    s.setHadoopStatistics(st.toIOStatistics());
    return s;
  }

  @Test
  void hasTheFieldsOfS3aSuccessDataAndRoundTrips() throws Exception {
    JsonRecordCodec<SuccessData> codec = SuccessData.CODEC;
    byte[] bytes = codec.toBytes(sample());
    JsonNode tree = new ObjectMapper().readTree(bytes);
    for (String field : List.of("name", "timestamp", "date", "hostname", "committer", "description", "jobId",
        "jobIdSource", "metrics", "diagnostics", "filenames", "iostatistics", "type", "version")) {
      assertTrue(tree.has(field), field + " in " + new String(bytes, StandardCharsets.UTF_8));
    }
    assertEquals(SuccessData.S3A_NAME, tree.get("name").asText());
    assertEquals(2, tree.get("iostatistics").get("counters").get(StoreStatisticNames.OP_PUT).asLong());

    SuccessData back = codec.fromBytes(bytes, "s3://b/table/_SUCCESS");
    assertEquals("direct", back.getCommitter());
    assertEquals(2, back.getFilenames().size());
    assertEquals(2L, back.getIostatistics().counters.get(StoreStatisticNames.OP_PUT));
    assertEquals(2L, back.getIostatistics().toSnapshot().meanStatistics().get(StoreStatisticNames.OP_PUT + ".mean").getSamples());
    assertEquals(2L, back.getMetrics().get(SuccessData.METRIC_FILES_COMMITTED));
  }

  @Test
  void aMarkerWithoutJobIdIsRefused() {
    SuccessData s = sample();
    s.setJobId(null);
    assertThrows(IllegalStateException.class, () -> SuccessData.CODEC.toBytes(s));
  }
}
