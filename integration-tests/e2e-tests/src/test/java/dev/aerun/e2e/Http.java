package dev.aerun.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.testing.RawHttp;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The JDK's HTTP client over real sockets, what the sample apps report, and a raw socket for
 * requests no client would send ({@link RawHttp}).
 */
public final class Http {
  private static final ObjectMapper JSON = new ObjectMapper();

  static final HttpClient CLIENT = newClient();

  private Http() {}

  /** A client with its own connection pool. */
  public static HttpClient newClient() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }

  static HttpResponse<String> get(URI uri, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<byte[]> send(HttpRequest request) throws Exception {
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
  }

  /**
   * Polls the sample app's {@code /sleep} until it reports {@code count} requests sleeping, for at
   * most 30 s.
   */
  public static void awaitSleeping(RuntimeProcess runtime, int count) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    String seen = "";
    while (System.nanoTime() < deadline) {
      seen = get(runtime.uri("/sleep")).body().trim();
      if (seen.equals("sleeping " + count)) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("never " + count + " requests sleeping; last: " + seen);
  }

  /** What {@code /request-info} reports the app saw. */
  static JsonNode requestInfo(URI uri, String... headers) throws Exception {
    HttpResponse<String> response = get(uri, headers);
    if (response.statusCode() != 200) {
      throw new AssertionError(
          "request-info answered " + response.statusCode() + ": " + response.body());
    }
    return JSON.readTree(response.body());
  }

  /** Sends raw bytes on a fresh connection and returns everything the server sent back. */
  static String raw(int port, byte[] request) throws IOException {
    return RawHttp.exchange(port, request);
  }

  static String raw(int port, String request) throws IOException {
    return RawHttp.exchange(port, request);
  }
}
