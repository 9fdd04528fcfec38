package dev.aerun.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * The load generator, in this JVM, against 127.0.0.1 only. Load runs ({@link #openLoop}, {@link
 * #closedLoop}) go through a lean NIO engine ({@link NioLoad}: pre-encoded requests, responses read
 * only as far as their framing), so that the generator costs a fraction of the server's CPU per
 * request; single requests that need their answer (echo, stats) go through the JDK's HTTP client,
 * keep-alive HTTP/1.1 as the load runs.
 *
 * <p>{@link #openLoop} sends on a fixed schedule, whether or not earlier requests returned, and
 * measures each request's latency from the moment the schedule meant to send it: a server that
 * stalls is charged for every request the stall delayed (no coordinated omission). Every run is
 * bounded: the schedule has a fixed number of requests, each request a timeout, and the wait for
 * stragglers a limit.
 */
final class LoadGenerator {
  /** The largest latency recorded: one minute, in microseconds. */
  static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(1);

  /** Connections of a closed-loop run. */
  static final int CLOSED_LOOP_CONNECTIONS = 16;

  /** Connections of an open-loop run: enough that a slow answer seldom makes a request queue. */
  static final int OPEN_LOOP_CONNECTIONS = 32;

  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

  // HTTP/1.1 only: by default the JDK's client offers every request an upgrade to h2c, which the
  // peers accept.
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** What one request sends; {@code acceptEncoding} is its {@code Accept-Encoding}, or null. */
  record Load(String method, String path, byte[] body, String acceptEncoding) {
    Load(String method, String path, byte[] body) {
      this(method, path, body, null);
    }
  }

  /** One request, waited for: its status, the response's size and how long it took. */
  record Exchange(int status, long bytes, long nanos) {}

  /**
   * What a load run measured. A closed-loop run has no schedule: its {@code achievedRate} is the
   * peak throughput at its concurrency, its target rate NaN, its lag empty.
   *
   * @param latency microseconds from each request's scheduled time to its complete 2xx response
   * @param lag microseconds from each request's scheduled time to the moment the generator got
   *     round to sending it (or queueing it for the next free connection): the generator's own part
   *     of the latency
   * @param errors other statuses, broken connections and requests still unanswered at the end
   * @param achievedRate 2xx responses per second, from the first scheduled request to the last
   *     response
   * @param maxSendLagMicros how late the generator itself sent its latest request
   * @param generatorCpuNanos this JVM's CPU time over the run
   */
  record RateRun(
      Histogram latency,
      Histogram lag,
      double targetRate,
      long sent,
      long ok,
      long errors,
      double achievedRate,
      long maxSendLagMicros,
      Map<Integer, Long> statuses,
      long generatorCpuNanos) {

    /** The generator's CPU per request sent, in microseconds. */
    double generatorCpuMicrosPerRequest() {
      return generatorCpuNanos / 1000.0 / Math.max(1, sent);
    }

    double p99Millis() {
      return latency.getValueAtPercentile(99) / 1000.0;
    }

    double lagP99Millis() {
      return lag.getValueAtPercentile(99) / 1000.0;
    }

    /**
     * Whether the generator kept its schedule well enough for the latency it reports: its p99 lag
     * is at most a tenth of the p99 latency. A phase that fails this is not measurable on this
     * machine, whatever its figures.
     */
    boolean measurable() {
      return Targets.measurable(lag.getValueAtPercentile(99), latency.getValueAtPercentile(99));
    }
  }

  /** Sends one request and waits for the whole response, counting its bytes, keeping none. */
  Exchange send(int port, Load load) throws Exception {
    long start = System.nanoTime();
    HttpResponse<InputStream> response =
        client.send(request(port, load), BodyHandlers.ofInputStream());
    try (InputStream body = response.body()) {
      long bytes = body.transferTo(OutputStream.nullOutputStream());
      return new Exchange(response.statusCode(), bytes, System.nanoTime() - start);
    }
  }

  /** {@code GET path} as text (the stats endpoint). */
  String getString(int port, String path) throws Exception {
    HttpResponse<String> response =
        client.send(request(port, new Load("GET", path, null)), BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("GET " + path + " answered " + response.statusCode());
    }
    return response.body();
  }

  private static HttpRequest request(int port, Load load) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + load.path()))
            .timeout(REQUEST_TIMEOUT)
            .header("User-Agent", "aerun-bench")
            .method(
                load.method(),
                load.body() == null
                    ? BodyPublishers.noBody()
                    : BodyPublishers.ofByteArray(load.body()));
    if (load.body() != null) {
      request.header("Content-Type", "application/octet-stream");
    }
    if (load.acceptEncoding() != null) {
      request.header("Accept-Encoding", load.acceptEncoding());
    }
    return request.build();
  }

  /**
   * Sends {@code load} to 127.0.0.1:{@code port} at {@code rate} requests per second for {@code
   * duration}, then waits (a bounded time) for the answers. Latency counts from each request's
   * scheduled time (no coordinated omission).
   */
  RateRun openLoop(int port, Load load, double rate, Duration duration) {
    return openLoop(port, load, rate, duration, OPEN_LOOP_CONNECTIONS);
  }

  RateRun openLoop(int port, Load load, double rate, Duration duration, int connections) {
    return run(port, load, connections, engine -> engine.runOpenLoop(rate, duration));
  }

  /**
   * Saturates the server: {@code connections} keep-alive connections, each sending its next request
   * as soon as the previous answer is complete, for {@code duration}.
   */
  RateRun closedLoop(int port, Load load, int connections, Duration duration) {
    return run(port, load, connections, engine -> engine.runClosedLoop(duration));
  }

  private static <T> T run(int port, Load load, int connections, Function<NioLoad, T> run) {
    InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    try (NioLoad engine = new NioLoad(loopback, load, connections)) {
      return run.apply(engine);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, e);
    }
  }
}
