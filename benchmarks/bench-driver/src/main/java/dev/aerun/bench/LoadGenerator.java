package dev.aerun.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The load generator, in this JVM, against 127.0.0.1 only. Load runs ({@link #openLoop}, {@link
 * #closedLoop}) go through a lean NIO engine ({@link NioLoad}: pre-encoded requests, responses read
 * only as far as their framing), so that the generator costs a fraction of the server's CPU per
 * request; single requests that need their answer (echo, stats) go through Jetty's HTTP client.
 *
 * <p>{@link #openLoop} sends on a fixed schedule, whether or not earlier requests returned, and
 * measures each request's latency from the moment the schedule meant to send it: a server that
 * stalls is charged for every request the stall delayed (no coordinated omission). Every run is
 * bounded: the schedule has a fixed number of requests, each request a timeout, and the wait for
 * stragglers a limit.
 */
final class LoadGenerator implements AutoCloseable {
  /** The largest latency recorded: one minute, in microseconds. */
  static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(1);

  /** Connections of a closed-loop run. */
  static final int CLOSED_LOOP_CONNECTIONS = 16;

  /** Connections of an open-loop run: enough that a slow answer seldom makes a request queue. */
  static final int OPEN_LOOP_CONNECTIONS = 32;

  private static final long REQUEST_TIMEOUT_SECONDS = 20;

  private final HttpClient client = new HttpClient();

  LoadGenerator() throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(64);
    threads.setName("bench-client");
    threads.setDaemon(true);
    client.setExecutor(threads);
    client.setMaxConnectionsPerDestination(256);
    client.setIdleTimeout(30_000);
    client.setConnectTimeout(5_000);
    client.setFollowRedirects(false);
    client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "aerun-bench"));
    // Jetty's client asks for every coding it finds on the class path: here a request asks for
    // compression only when its Load says so, as the load runs' requests do.
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
   * What an open-loop run measured.
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

  /**
   * What a closed-loop run measured: every connection sends its next request as soon as the
   * previous answer is complete; {@code rate}, 2xx responses per second, is the peak throughput at
   * this concurrency.
   */
  record ClosedRun(
      Histogram latency,
      int connections,
      long ok,
      long errors,
      double rate,
      double seconds,
      Map<Integer, Long> statuses,
      long generatorCpuNanos) {

    double generatorCpuMicrosPerRequest() {
      return generatorCpuNanos / 1000.0 / Math.max(1, ok + errors);
    }
  }

  /** Sends one request and waits for the whole response, counting its bytes, keeping none. */
  Exchange send(int port, Load load) throws Exception {
    CompletableFuture<Exchange> done = new CompletableFuture<>();
    long start = System.nanoTime();
    Request request =
        client
            .newRequest("127.0.0.1", port)
            .method(load.method())
            .path(load.path())
            .timeout(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (load.acceptEncoding() != null) {
      request.headers(h -> h.put(HttpHeader.ACCEPT_ENCODING, load.acceptEncoding()));
    }
    if (load.body() != null) {
      request.body(new BytesRequestContent("application/octet-stream", load.body()));
    }
    request.send(
        new Response.Listener() {
          private long bytes;

          @Override
          public void onContent(Response response, ByteBuffer content) {
            bytes += content.remaining();
          }

          @Override
          public void onComplete(Result result) {
            if (result.isFailed()) {
              done.completeExceptionally(result.getFailure());
            } else {
              int status = result.getResponse().getStatus();
              done.complete(new Exchange(status, bytes, System.nanoTime() - start));
            }
          }
        });
    return done.get(REQUEST_TIMEOUT_SECONDS + 5, TimeUnit.SECONDS);
  }

  /** {@code GET path} as text (the stats endpoint). */
  String getString(int port, String path) throws Exception {
    ContentResponse response =
        client
            .newRequest("127.0.0.1", port)
            .path(path)
            .timeout(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .send();
    if (response.getStatus() != 200) {
      throw new IllegalStateException("GET " + path + " answered " + response.getStatus());
    }
    return response.getContentAsString();
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
    try {
      return NioLoad.openLoop(loopback(port), load, rate, duration, connections);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, e);
    }
  }

  /**
   * Saturates the server: {@code connections} keep-alive connections, each sending its next request
   * as soon as the previous answer is complete, for {@code duration}.
   */
  ClosedRun closedLoop(int port, Load load, int connections, Duration duration) {
    try {
      return NioLoad.closedLoop(loopback(port), load, connections, duration);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, e);
    }
  }

  private static InetSocketAddress loopback(int port) {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
  }

  @Override
  public void close() throws Exception {
    client.stop();
  }
}
