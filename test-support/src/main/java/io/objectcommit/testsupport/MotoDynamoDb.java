package io.objectcommit.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * moto server (5.2.5) as a DynamoDB endpoint on a free 127.0.0.1 port, over TLS with a self-signed certificate of its
 * own (clients must not check it), for clients that always speak HTTPS, such as the AWS SDK v1 client of Delta's
 * {@code S3DynamoDBLogStore}. It serves S3 too, unused here. moto's request recorder is on: every request is a line
 * of JSON in {@link #recordingFile()}, from which {@link #requests()} reads what was asked in order; the server's
 * log has each answer's status ({@link #answers(int)}). moto does not check DynamoDB signatures: any keys will do.
 */
public final class MotoDynamoDb implements AutoCloseable {

  /** The target header of a DynamoDB request, as the recorder writes it: {@code DynamoDB_20120810.PutItem}. */
  private static final Pattern TARGET = Pattern.compile("\"X-Amz-Target\": \"DynamoDB_\\d+\\.(\\w+)\"");
  /** A request's body as the recorder writes it: a JSON string, base64 when {@code body_encoded} is true. */
  private static final Pattern BODY = Pattern.compile("\"body\": \"((?:[^\"\\\\]|\\\\.)*)\", \"body_encoded\": (true|false)");
  /** A request line of the server's log, with its status: {@code "POST / HTTP/1.1" 400 -} (colour codes aside). */
  private static final Pattern ANSWER = Pattern.compile("POST / HTTP/1\\.1\\S*\" (\\d{3}) ");

  private final StoreHost host;
  private final Path recording;

  private MotoDynamoDb(StoreHost host, Path recording) {
    this.host = host;
    this.recording = recording;
  }

  /** Starts moto under {@code workDir} and waits until it answers. */
  public static MotoDynamoDb start(Path workDir) throws IOException {
    Path recording = Files.createDirectories(workDir).resolve("moto-recording-" + System.nanoTime() + ".jsonl");
    StoreHost host = StoreHost.startMotoOverTls(workDir, Map.of("MOTO_ENABLE_RECORDING", "True",
        "MOTO_RECORDER_FILEPATH", recording.toString()));
    return new MotoDynamoDb(host, recording);
  }

  /** {@code 127.0.0.1:port}: the host a client's DynamoDB endpoint names (the scheme is https). */
  public String hostAndPort() {
    return "127.0.0.1:" + host.port();
  }

  /** One DynamoDB request: its operation ({@code PutItem}, ...) and its JSON body. */
  public record Request(String operation, String body) {
  }

  /**
   * Every DynamoDB request so far, in the order moto received them; other requests (the start-up's readiness
   * probes) are left out.
   */
  public List<Request> requests() throws IOException {
    List<Request> out = new ArrayList<>();
    if (!Files.exists(recording)) {
      return out;
    }
    for (String line : Files.readAllLines(recording, StandardCharsets.UTF_8)) {
      Matcher target = TARGET.matcher(line);
      if (!target.find()) {
        continue;
      }
      Matcher body = BODY.matcher(line);
      String json = "";
      if (body.find()) {
        json = body.group(2).equals("true")
            ? new String(Base64.getDecoder().decode(body.group(1)), StandardCharsets.UTF_8) : body.group(1);
      }
      out.add(new Request(target.group(1), json));
    }
    return out;
  }

  /** The operation of every DynamoDB request so far ({@link #requests()}), in order. */
  public List<String> operations() throws IOException {
    return requests().stream().map(Request::operation).toList();
  }

  /** How many requests so far got {@code status} (400 is how DynamoDB refuses a condition, among others). */
  public long answers(int status) throws IOException {
    String code = Integer.toString(status);
    return Files.readAllLines(host.logFile().orElseThrow(), StandardCharsets.UTF_8).stream()
        .map(ANSWER::matcher).filter(Matcher::find).filter(m -> m.group(1).equals(code)).count();
  }

  /** The recorder's file: one JSON object per request (headers and body). */
  public Path recordingFile() {
    return recording;
  }

  @Override
  public void close() {
    host.close();
  }

  @Override
  public String toString() {
    return "moto serving DynamoDB on https://" + hostAndPort();
  }
}
