package io.objectcommit.store.files;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.objectcommit.store.ObjectInfo;
import io.objectcommit.store.ObjectStore;
import io.objectcommit.store.Payload;
import io.objectcommit.store.StoredBytes;
import io.objectcommit.store.WriteCondition;
import java.io.IOException;
import java.util.Objects;

/**
 * Reads and writes one kind of {@link JsonRecord}. Loading checks, in order, that the bytes are one JSON object,
 * that its {@code type} is this codec's, that its {@code version} is one this code reads
 * ({@code minVersion..maxVersion}), and that the record {@link JsonRecord#validate() validates}; each failure is
 * a {@link CorruptRecordException} naming the object. Thread-safe.
 */
public final class JsonRecordCodec<T extends JsonRecord> {

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true);

  private final Class<T> recordClass;
  private final String type;
  private final int minVersion;
  private final int maxVersion;
  private final boolean pretty;

  /** A codec writing indented JSON, for records people read. */
  public JsonRecordCodec(Class<T> recordClass, String type, int minVersion, int maxVersion) {
    this(recordClass, type, minVersion, maxVersion, true);
  }

  /** @param pretty indented JSON (records people read) or compact (large records rewritten often) */
  public JsonRecordCodec(Class<T> recordClass, String type, int minVersion, int maxVersion, boolean pretty) {
    this.pretty = pretty;
    this.recordClass = Objects.requireNonNull(recordClass, "recordClass");
    this.type = Objects.requireNonNull(type, "type");
    if (minVersion < 1 || maxVersion < minVersion) {
      throw new IllegalArgumentException("bad version range " + minVersion + ".." + maxVersion);
    }
    this.minVersion = minVersion;
    this.maxVersion = maxVersion;
  }

  public String type() {
    return type;
  }

  /** Serialises a record after validating it (a record that would not load is never written). */
  public byte[] toBytes(T record) throws IOException {
    if (!type.equals(record.getType())) {
      throw new IllegalArgumentException("record of type " + record.getType() + " given to the codec of " + type);
    }
    record.validate();
    return pretty ? MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(record)
        : MAPPER.writeValueAsBytes(record);
  }

  /**
   * Parses and validates.
   *
   * @param path where the bytes came from, for error messages
   */
  public T fromBytes(byte[] data, String path) throws CorruptRecordException {
    JsonNode tree;
    try {
      tree = MAPPER.readTree(data);
    } catch (JsonProcessingException e) {
      throw new CorruptRecordException(path, "not a valid " + type + " record (" + data.length + " bytes): "
          + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new CorruptRecordException(path, "unreadable " + type + " record: " + e.getMessage(), e);
    }
    if (tree == null || !tree.isObject()) {
      throw new CorruptRecordException(path, "not a " + type + " record: expected a JSON object, found "
          + (tree == null || tree.isMissingNode() ? "nothing (empty file)" : tree.getNodeType()), null);
    }
    JsonNode t = tree.get("type");
    if (t == null || !type.equals(t.asText())) {
      throw new CorruptRecordException(path, "expected a record of type " + type + ", found "
          + (t == null ? "no type" : "type " + t), null);
    }
    JsonNode v = tree.get("version");
    if (v == null || !v.canConvertToInt()) {
      throw new CorruptRecordException(path, type + " record without a version", null);
    }
    int version = v.asInt();
    if (version < minVersion || version > maxVersion) {
      throw new CorruptRecordException(path, type + " record of version " + version + ": this version of "
          + "objectcommit reads versions " + minVersion + " to " + maxVersion
          + (version > maxVersion ? " (written by a newer objectcommit? upgrade)" : ""), null);
    }
    T record;
    try {
      record = MAPPER.treeToValue(tree, recordClass);
    } catch (JsonProcessingException e) {
      throw new CorruptRecordException(path, "malformed " + type + " record: " + e.getOriginalMessage(), e);
    }
    try {
      record.validate();
    } catch (RuntimeException e) {
      throw new CorruptRecordException(path, "invalid " + type + " record: " + e.getMessage(), e);
    }
    return record;
  }

  /** Loads a record from the store (one GET). */
  public T load(ObjectStore store, String key) throws IOException {
    return fromBytes(store.getBytes(key).data(), store.pathOf(key));
  }

  /** Loads a record with the ETag of the object it came from, for a later {@link WriteCondition#ifMatch}. */
  public Loaded<T> loadWithEtag(ObjectStore store, String key) throws IOException {
    StoredBytes b = store.getBytes(key);
    return new Loaded<>(fromBytes(b.data(), store.pathOf(key)), b.info());
  }

  /** Saves a record under a write condition (one PUT). */
  public ObjectInfo save(ObjectStore store, String key, T record, WriteCondition condition) throws IOException {
    return store.put(key, Payload.of(toBytes(record)), condition);
  }

  /** A record and the object it was read from. */
  public static final class Loaded<T> {
    private final T record;
    private final ObjectInfo info;

    Loaded(T record, ObjectInfo info) {
      this.record = record;
      this.info = info;
    }

    public T record() {
      return record;
    }

    public ObjectInfo info() {
      return info;
    }
  }
}
