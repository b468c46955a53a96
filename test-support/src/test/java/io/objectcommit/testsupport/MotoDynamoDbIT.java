package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.net.ssl.HttpsURLConnection;
import org.junit.jupiter.api.Test;

/**
 * What the Delta benchmark relies on when it counts {@code S3DynamoDBLogStore}'s DynamoDB requests: moto answers
 * DynamoDB over TLS, refuses a conditional PutItem on an existing key with 400, and {@link MotoDynamoDb} reports every
 * DynamoDB request's operation and body, in order, and the refusals. Plain HTTPS requests, no SDK.
 */
class MotoDynamoDbIT {

  @Test
  void countsEveryRequestByOperationAndTheRefusals() throws Exception {
    try (MotoDynamoDb moto = MotoDynamoDb.start(S3Endpoints.workDir().resolve("moto-dynamodb"))) {
      assertEquals(List.of(), moto.operations());
      assertEquals(400, call(moto, "DescribeTable", "{\"TableName\":\"log\"}"));
      assertEquals(200, call(moto, "CreateTable", "{\"TableName\":\"log\","
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],"
          + "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}],"
          + "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":5}}"));
      String claim = "{\"TableName\":\"log\",\"Item\":{\"k\":{\"S\":\"00000000000000000001.json\"}},"
          + "\"Expected\":{\"k\":{\"Exists\":false}}}";
      assertEquals(200, call(moto, "PutItem", claim));
      assertEquals(400, call(moto, "PutItem", claim), "a second claim of the same key is refused");
      assertEquals(List.of("DescribeTable", "CreateTable", "PutItem", "PutItem"), moto.operations());
      assertEquals(claim, moto.requests().get(3).body(), "the body as sent");
      assertEquals(2, moto.answers(400));
      assertEquals(2, moto.answers(200));
    }
  }

  /** One DynamoDB request; returns the status. */
  private static int call(MotoDynamoDb moto, String operation, String json) throws IOException {
    HttpsURLConnection c = (HttpsURLConnection) new URL("https://" + moto.hostAndPort() + "/").openConnection();
    StoreHost.trustAnyCertificate(c);
    c.setRequestMethod("POST");
    c.setDoOutput(true);
    c.setRequestProperty("Content-Type", "application/x-amz-json-1.0");
    c.setRequestProperty("X-Amz-Target", "DynamoDB_20120810." + operation);
    // moto reads the region from the credential scope; it checks no DynamoDB signature
    c.setRequestProperty("Authorization", "AWS4-HMAC-SHA256 Credential=test/20261126/us-east-1/dynamodb/aws4_request,"
        + " SignedHeaders=host, Signature=0");
    try (OutputStream out = c.getOutputStream()) {
      out.write(json.getBytes(StandardCharsets.UTF_8));
    }
    int status = c.getResponseCode();
    try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
      if (in != null) {
        in.readAllBytes();
      }
    }
    return status;
  }
}
