package dev.aerun.e2e.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.testing.RawHttp;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Platform headers smuggled in as chunked trailers: an untrusted client's {@code X-AppEngine-*},
 * {@code X-Forwarded-*}, {@code Forwarded} and private fields never reach {@code
 * getTrailerFields()}, in either mode or EE version; a plain trailer reaches the app in both.
 */
class TrailersTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest(name = "{0} mode, {1}")
  @CsvSource({
    "http, sample-ee10-app.war",
    "legacy, sample-ee10-app.war",
    "http, sample-ee8-app.war",
    "legacy, sample-ee8-app.war"
  })
  void forgedTrailersAreRemoved_plainOnesDelivered(String mode, String war) throws Exception {
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(RuntimeProcess.app(war)).args("--mode", mode).start()) {
      String request =
          "POST /request-info HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
              + "5\r\nhello\r\n0\r\n"
              + "X-AppEngine-Cron: true\r\n"
              + "X-AppEngine-User-Email: evil@example.com\r\n"
              + "X-AppEngine-User-IP: 203.0.113.9\r\n"
              + "X-Forwarded-For: 198.51.100.1\r\n"
              + "Forwarded: for=198.51.100.1\r\n"
              + "X-Google-Internal-Skip: 1\r\n"
              + "X-Checksum: abc123\r\n\r\n";

      String response = exchange(runtime.port(), request);

      assertTrue(response.startsWith("HTTP/1.1 200 "), response + runtime.output());
      JsonNode info = JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
      assertEquals(5, info.get("bodyLength").asInt(), response);
      Map<String, String> trailers = new TreeMap<>();
      info.get("trailers")
          .fields()
          .forEachRemaining(f -> trailers.put(f.getKey(), f.getValue().asText()));
      assertEquals(Map.of("x-checksum", "abc123"), trailers, response);
    }
  }

  /** Sends {@code request} as is and reads the answer until the server closes the connection. */
  private static String exchange(int port, String request) throws IOException {
    try (RawHttp connection = RawHttp.connect(port)) {
      return new String(
          connection.write(request).readToEnd().getBytes(StandardCharsets.ISO_8859_1),
          StandardCharsets.UTF_8);
    }
  }
}
