package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compression both ways over real sockets, in both modes: responses compressed for clients that
 * accept it, gzip request bodies inflated before the app reads them, {@code --compression off}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompressionTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final ObjectMapper JSON = new ObjectMapper();
  private final Map<String, RuntimeProcess> byMode = new java.util.HashMap<>();
  private RuntimeProcess off;

  @BeforeAll
  void start() throws Exception {
    for (String mode : new String[] {"http", "legacy"}) {
      byMode.put(
          mode,
          runtimes.start(
              RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                  .args("--mode", mode)));
    }
    off =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .property("appengine.use.compression", "false"));
    for (RuntimeProcess runtime : byMode.values()) {
      runtime.port();
    }
    off.port();
  }

  private static byte[] gzip(byte[] plain) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(plain);
    }
    return out.toByteArray();
  }

  private static HttpResponse<byte[]> get(RuntimeProcess runtime, String path, String encoding)
      throws Exception {
    return Http.send(
        HttpRequest.newBuilder(runtime.uri(path))
            .header("Accept-Encoding", encoding)
            .timeout(Duration.ofSeconds(30))
            .build());
  }

  private static HttpResponse<byte[]> postGzip(RuntimeProcess runtime, String path, byte[] body)
      throws Exception {
    return Http.send(
        HttpRequest.newBuilder(runtime.uri(path))
            .header("Content-Encoding", "gzip")
            .header("Content-Type", "application/octet-stream")
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void responsesAreCompressedForClientsThatAcceptIt(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    HttpResponse<byte[]> response = get(runtime, "/generate?bytes=100000", "gzip");
    assertEquals(200, response.statusCode());
    assertEquals("gzip", response.headers().firstValue("Content-Encoding").orElse(null));
    assertTrue(response.headers().allValues("Vary").toString().contains("Accept-Encoding"));
    byte[] plain = new GZIPInputStream(new ByteArrayInputStream(response.body())).readAllBytes();
    assertEquals(100_000, plain.length);
    assertTrue(response.body().length < 10_000, "compressed to " + response.body().length);
    // A browser's list: the runtime's own preference among them.
    assertEquals(
        "zstd",
        get(runtime, "/generate?bytes=100000", "gzip, deflate, br, zstd")
            .headers()
            .firstValue("Content-Encoding")
            .orElse(null));
    assertEquals(
        "br",
        get(runtime, "/generate?bytes=100000", "br")
            .headers()
            .firstValue("Content-Encoding")
            .orElse(null));
  }

  private static String encoding(HttpResponse<byte[]> response) {
    return response.headers().firstValue("Content-Encoding").orElse(null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void theClientsWeightsChooseTheCoding(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    String path = "/generate?bytes=100000";
    assertEquals("gzip", encoding(get(runtime, path, "gzip;q=1.0, br;q=0.5")));
    assertEquals("br", encoding(get(runtime, path, "br;q=1, gzip;q=0.8")));
    // Equal weights: ours (zstandard, brotli, gzip).
    assertEquals("br", encoding(get(runtime, path, "gzip;q=0.7, br;q=0.7")));
    assertEquals("gzip", encoding(get(runtime, path, "zstd;q=0, br;q=0, *")));
    assertEquals("gzip", encoding(get(runtime, path, "gzip;q=0.5, *;q=0.1")));
    assertNull(encoding(get(runtime, path, "*;q=0")));
    // Identity refused, nothing offered accepted: answered as it is.
    HttpResponse<byte[]> refused = get(runtime, path, "compress, identity;q=0");
    assertEquals(200, refused.statusCode());
    assertNull(encoding(refused));
    assertEquals(100_000, refused.body().length);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void theAppSeesTheClientsAcceptEncoding(String mode) throws Exception {
    HttpResponse<byte[]> response = get(byMode.get(mode), "/request-info", "br;q=0.1, gzip;q=0.9");
    assertEquals("gzip", encoding(response));
    JsonNode seen = JSON.readTree(new GZIPInputStream(new ByteArrayInputStream(response.body())));
    assertEquals(
        "br;q=0.1, gzip;q=0.9", header(seen.get("headers"), "Accept-Encoding"), seen.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void theAppsVaryIsKeptAndAcceptEncodingAddedOnce(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    assertEquals(
        List.of("Cookie, Accept-Encoding"),
        get(runtime, "/generate?bytes=1000&vary=Cookie", "gzip").headers().allValues("Vary"));
    assertEquals(
        List.of("Cookie, Origin, Accept-Encoding"),
        get(runtime, "/generate?bytes=1000&vary=Cookie&vary=Origin", "gzip")
            .headers()
            .allValues("Vary"));
    assertEquals(
        List.of("Accept-Encoding"),
        get(runtime, "/generate?bytes=1000&vary=Accept-Encoding", "gzip")
            .headers()
            .allValues("Vary"));
    assertEquals(
        List.of("Cookie"),
        get(runtime, "/generate?bytes=1000&vary=Cookie", "identity").headers().allValues("Vary"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void gzipRequestBodiesReachTheAppInflated(String mode) throws Exception {
    RuntimeProcess runtime = byMode.get(mode);
    byte[] plain =
        "an upload the client compressed\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
    byte[] compressed = gzip(plain);
    HttpResponse<byte[]> response = postGzip(runtime, "/request-info", compressed);
    assertEquals(200, response.statusCode());
    JsonNode seen = JSON.readTree(response.body());
    assertEquals(plain.length, seen.get("bodyLength").asInt(), seen.toString());
    JsonNode headers = seen.get("headers");
    assertNull(header(headers, "Content-Encoding"), headers.toString());
    assertNull(header(headers, "Content-Length"), headers.toString());
    assertEquals("gzip", header(headers, "X-Content-Encoding"), headers.toString());
    assertEquals(
        String.valueOf(compressed.length), header(headers, "X-Content-Length"), headers.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void theBodyLimitCountsInflatedBytes(String mode) throws Exception {
    // 33 MiB of zeros, about 33 KiB compressed.
    byte[] bomb = gzip(new byte[33 * 1024 * 1024]);
    assertEquals(413, postGzip(byMode.get(mode), "/request-info", bomb).statusCode());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void aMalformedGzipBodyIs400(String mode) throws Exception {
    byte[] notGzip = "not gzip".getBytes(StandardCharsets.UTF_8);
    assertEquals(400, postGzip(byMode.get(mode), "/echo", notGzip).statusCode());
  }

  @Test
  void aFlushReachesTheClientCompressed() throws Exception {
    // HttpConnector mode streams; legacy mode buffers every response, by design.
    RuntimeProcess runtime = byMode.get("http");
    HttpResponse<InputStream> response =
        Http.CLIENT.send(
            HttpRequest.newBuilder(runtime.uri("/stream?id=flush"))
                .header("Accept-Encoding", "gzip")
                .timeout(Duration.ofSeconds(60))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals("gzip", response.headers().firstValue("Content-Encoding").orElse(null));
    String firstPart = "first part of a streamed answer\n".repeat(32);
    // Read by exact byte counts: a Reader over GZIPInputStream would wait for more than was sent
    // (GZIPInputStream says bytes are available until the end).
    try (GZIPInputStream body = new GZIPInputStream(response.body())) {
      // The servlet waits for the release below before it writes more: these came by flush.
      assertEquals(
          firstPart,
          new String(
              body.readNBytes(firstPart.getBytes(StandardCharsets.UTF_8).length),
              StandardCharsets.UTF_8));
      assertEquals(
          "released",
          new String(
              get(runtime, "/stream?release=flush", "identity").body(), StandardCharsets.UTF_8));
      assertEquals("second part\n", new String(body.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void compressionOffLeavesBothWaysAlone() throws Exception {
    HttpResponse<byte[]> response = get(off, "/generate?bytes=100000", "gzip, br, zstd");
    assertNull(response.headers().firstValue("Content-Encoding").orElse(null));
    assertEquals(100_000, response.body().length);
    byte[] compressed = gzip("kept compressed\n".repeat(100).getBytes(StandardCharsets.UTF_8));
    JsonNode seen = JSON.readTree(postGzip(off, "/request-info", compressed).body());
    assertEquals(compressed.length, seen.get("bodyLength").asInt());
    assertEquals("gzip", header(seen.get("headers"), "Content-Encoding"));
  }

  /** The first value of the header the app saw, its name's case ignored; null if none. */
  private static String header(JsonNode headers, String name) {
    for (var it = headers.fields(); it.hasNext(); ) {
      var field = it.next();
      if (field.getKey().equalsIgnoreCase(name)) {
        return field.getValue().isArray()
            ? field.getValue().get(0).asText()
            : field.getValue().asText();
      }
    }
    return null;
  }
}
