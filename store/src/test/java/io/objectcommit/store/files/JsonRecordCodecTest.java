package io.objectcommit.store.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonRecordCodecTest {

  /** A sample record: a name and a list of files, at least one. */
  public static final class Sample extends JsonRecord {
    public static final String TYPE = "objectcommit.test.sample";
    public String name;
    public List<String> files = new ArrayList<>();

    public Sample() {
      super(TYPE, 2);
    }

    @Override
    public void validate() {
      check(name != null && !name.isEmpty(), "no name");
      check(!files.isEmpty(), "no files");
    }
  }

  private final JsonRecordCodec<Sample> codec = new JsonRecordCodec<>(Sample.class, Sample.TYPE, 1, 2);
  private static final String PATH = "s3://b/records/sample.json";

  private static byte[] json(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private Sample sample() {
    Sample s = new Sample();
    s.name = "job-1";
    s.files.add("part-0000.parquet");
    return s;
  }

  @Test
  void roundTrips() throws Exception {
    byte[] bytes = codec.toBytes(sample());
    String text = new String(bytes, StandardCharsets.UTF_8);
    assertTrue(text.contains("\"type\" : \"objectcommit.test.sample\"") && text.contains("\"version\" : 2"), text);
    Sample back = codec.fromBytes(bytes, PATH);
    assertEquals("job-1", back.name);
    assertEquals(List.of("part-0000.parquet"), back.files);
  }

  @Test
  void unknownFieldsAreIgnoredAndOlderVersionsRead() throws Exception {
    Sample s = codec.fromBytes(json("{\"type\":\"objectcommit.test.sample\",\"version\":1,\"name\":\"n\","
        + "\"files\":[\"f\"],\"addedLater\":42}"), PATH);
    assertEquals("n", s.name);
  }

  @Test
  void everyKindOfBadRecordIsReportedWithThePath() {
    assertCorrupt("", "empty file");
    assertCorrupt("{\"type\":\"objectcommit.test.sample\",\"version\":2,\"name\":\"n\",\"fi", "not a valid");
    assertCorrupt("[1,2]", "expected a JSON object");
    assertCorrupt("{\"type\":\"something.else\",\"version\":1}", "expected a record of type");
    assertCorrupt("{\"version\":1}", "no type");
    assertCorrupt("{\"type\":\"objectcommit.test.sample\"}", "without a version");
    assertCorrupt("{\"type\":\"objectcommit.test.sample\",\"version\":3,\"name\":\"n\",\"files\":[\"f\"]}",
        "upgrade");
    assertCorrupt("{\"type\":\"objectcommit.test.sample\",\"version\":2,\"name\":\"n\",\"files\":[]}", "no files");
    assertCorrupt("{\"type\":\"objectcommit.test.sample\",\"version\":2,\"name\":\"n\",\"files\":\"f\"}", "malformed");
    assertCorrupt("{\"type\":\"objectcommit.test.sample\",\"version\":2,\"name\":\"n\",\"files\":[\"f\"]} {}",
        "not a valid");
  }

  private void assertCorrupt(String text, String expected) {
    CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> codec.fromBytes(json(text), PATH),
        text);
    assertTrue(e.getMessage().contains(PATH), e.getMessage());
    assertTrue(e.getMessage().contains(expected), "'" + expected + "' in: " + e.getMessage());
  }

  @Test
  void anInvalidRecordIsNeverWritten() {
    Sample s = sample();
    s.files.clear();
    assertThrows(IllegalStateException.class, () -> codec.toBytes(s));
  }
}
