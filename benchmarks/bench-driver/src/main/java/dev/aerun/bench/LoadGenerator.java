package dev.aerun.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The load generator, in this JVM, against 127.0.0.1 only. Load runs ({@link #openLoop}, {@link
 * #closedLoop}) go through a lean NIO engine ({@link NioLoad}: pre-encoded requests, responses read
 * only as far as their framing), so that the generator costs a fraction of the server's CPU per
 * request; single requests that need their answer (echo, stats) go through Jetty's HTTP client.
 * Every run is bounded: the schedule has a fixed number of requests, each request a timeout, and
 * the wait for stragglers a limit.
 */
final class LoadGenerator implements AutoCloseable {
  /** The largest latency recorded: one minute, in microseconds. */
  static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(1);

  static final int CLOSED_LOOP_CONNECTIONS = 16;

  /** Connections of an open-loop run: enough that a slow answer seldom makes a request queue. */
  static final int OPEN_LOOP_CONNECTIONS = 32;

  private static final long REQUEST_TIMEOUT_SECONDS = 20;

  // Jetty's client, not the JDK's: it reads the answer while it still sends the request, which a
  // streamed echo of 30 MiB needs.
  private final HttpClient client = new HttpClient();

  LoadGenerator() throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(64);
    threads.setName("bench-client");
    threads.setDaemon(true);
    client.setExecutor(threads); // its idle (30 s) and connect (5 s) timeouts as they come
    client.setFollowRedirects(false);
    client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "aerun-bench"));
    // A response is counted as it comes, compressed or not: no decoding.
    client.getContentDecoderFactories().clear();
    client.start();
  }

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

    /** Whether the phase measured the server, not the generator: {@link Targets#measurable}. */
    boolean measurable() {
      return Targets.measurable(lag.getValueAtPercentile(99), latency.getValueAtPercentile(99));
    }
  }

  /** Sends one request and waits for the whole response, counting its bytes, keeping none. */
  Exchange send(int port, Load load) throws Exception {
    CompletableFuture<Exchange> done = new CompletableFuture<>();
    long start = System.nanoTime();
    long[] bytes = {0};
    request(port, load)
        .body(load.body() == null ? null : new BytesRequestContent(load.body()))
        .onResponseContent((response, content) -> bytes[0] += content.remaining())
        .send(
            result -> {
              if (result.isFailed()) {
                done.completeExceptionally(result.getFailure());
              } else {
                long nanos = System.nanoTime() - start;
                done.complete(new Exchange(result.getResponse().getStatus(), bytes[0], nanos));
              }
            });
    return done.get(REQUEST_TIMEOUT_SECONDS + 5, TimeUnit.SECONDS);
  }

  /** {@code GET path} as text (the stats endpoint). */
  String getString(int port, String path) throws Exception {
    ContentResponse response = request(port, new Load("GET", path, null)).send();
    if (response.getStatus() != 200) {
      throw new IllegalStateException("GET " + path + " answered " + response.getStatus());
    }
    return response.getContentAsString();
  }

  /**
   * A request that asks for compression only when its load says so, as the load runs' requests do:
   * Jetty's client puts {@code Accept-Encoding: gzip} on every new request, decoders or not, and
   * the peers then compress the echo's answers.
   */
  private Request request(int port, Load load) {
    return client
        .newRequest("127.0.0.1", port)
        .method(load.method())
        .path(load.path())
        .headers(h -> h.put(HttpHeader.ACCEPT_ENCODING, load.acceptEncoding())) // null: removed
        .timeout(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /**
   * Sends {@code load} to 127.0.0.1:{@code port} at {@code rate} requests per second for {@code
   * duration}, then waits (a bounded time) for the answers. Latency counts from each request's
   * scheduled time (no coordinated omission).
   */
  RateRun openLoop(int port, Load load, double rate, Duration duration) {
    return openLoop(port, load, rate, duration, OPEN_LOOP_CONNECTIONS);
  }

  /** {@link #openLoop} on {@code connections}; closed loop where {@code rate} is NaN. */
  RateRun openLoop(int port, Load load, double rate, Duration duration, int connections) {
    InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    try (NioLoad engine = new NioLoad(loopback, load, connections)) {
      return engine.run(rate, duration);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, e);
    }
  }

  /**
   * Saturates the server: {@code connections} keep-alive connections, each sending its next request
   * as soon as the previous answer is complete, for {@code duration}.
   */
  RateRun closedLoop(int port, Load load, int connections, Duration duration) {
    return openLoop(port, load, Double.NaN, duration, connections);
  }

  @Override
  public void close() throws Exception {
    client.stop();
  }
}
