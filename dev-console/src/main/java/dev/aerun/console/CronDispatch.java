package dev.aerun.console;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * Runs a cron job now, as the platform's cron service would: a {@code GET} of the job's path with
 * {@code X-AppEngine-Cron: true}, sent to the runtime on {@code 127.0.0.1} (a loopback peer, which
 * the development runtime trusts, so the app sees the header and the request passes {@code admin}
 * constraints), redirects not followed.
 */
final class CronDispatch {
  /** The platform's deadline for a cron request, as for a push task. */
  static final Duration DEADLINE = Duration.ofMinutes(10);

  private final IntSupplier port;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NEVER)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  /**
   * @param port the runtime's HTTP port once it serves, 0 before
   */
  CronDispatch(IntSupplier port) {
    this.port = port;
  }

  /**
   * Requests {@code url} (a path of the app) and returns the status the app answered.
   *
   * @throws IllegalArgumentException when the URL is not a path of the app
   * @throws IOException when the runtime cannot be reached
   */
  int runBlocking(String url) throws IOException, InterruptedException {
    if (!url.startsWith("/") || url.startsWith("//")) {
      throw new IllegalArgumentException("a cron job's <url> is a path of the app: " + url);
    }
    int serving = port.getAsInt();
    if (serving <= 0) {
      throw new IOException("the runtime does not serve yet");
    }
    URI uri;
    try {
      uri = URI.create("http://127.0.0.1:" + serving + url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URL path: " + url);
    }
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(DEADLINE)
            .header("X-AppEngine-Cron", "true")
            .GET()
            .build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
