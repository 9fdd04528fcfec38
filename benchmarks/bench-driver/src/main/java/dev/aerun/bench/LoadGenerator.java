package dev.aerun.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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
 * The load generator, in this JVM, against 127.0.0.1 only; public for the other benchmark packages
 * of this driver. Load runs ({@link #openLoop}, {@link #closedLoop}) go through a lean NIO engine
 * of this package ({@link NioLoad}: pre-encoded requests, responses read only as far as their
 * framing), so that the generator costs a fraction of the server's CPU per request; single requests
 * that need their answer (echo, stats) go through Jetty's HTTP client.
 *
 * <p>{@link #openLoop} sends on a fixed schedule, whether or not earlier requests returned, and
 * measures each request's latency from the moment the schedule meant to send it: a server that
 * stalls is charged for every request the stall delayed (no coordinated omission). Every run is
 * bounded: the schedule has a fixed number of requests, each request a timeout, and the wait for
 * stragglers a limit.
 */
public final class LoadGenerator implements AutoCloseable {
  /** The largest latency recorded: one minute, in microseconds. */
  public static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(1);

  private static final long REQUEST_TIMEOUT_SECONDS = 20;

  private final HttpClient client;

  public LoadGenerator() throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(64);
    threads.setName("bench-client");
    threads.setDaemon(true);
    client = new HttpClient();
    client.setExecutor(threads);
    client.setMaxConnectionsPerDestination(256);
    client.setMaxRequestsQueuedPerDestination(1 << 20);
    client.setIdleTimeout(30_000);
    client.setConnectTimeout(5_000);
    client.setFollowRedirects(false);
    client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "aerun-bench"));
    // Jetty's client asks for every coding it finds on the class path: here a request asks for
    // compression only when its Load says so, as the load runs' requests do.
    client.getContentDecoderFactories().clear();
    client.start();
  }

  /**
   * What one request of a run sends.
   *
   * @param acceptEncoding its {@code Accept-Encoding} header, or null for none
   */
  public record Load(String method, String path, byte[] body, String acceptEncoding) {
    /** With no {@code Accept-Encoding}: the answer comes uncompressed. */
    public Load(String method, String path, byte[] body) {
      this(method, path, body, null);
    }
  }

  /** One request, waited for: its status, the response's size and how long it took. */
  public record Exchange(int status, long bytes, long nanos) {}

  /** Sends one request and waits for the whole response, counting its bytes, keeping none. */
  public Exchange send(int port, Load load) throws Exception {
    CompletableFuture<Exchange> done = new CompletableFuture<>();
    long start = System.nanoTime();
    newRequest(port, load)
        .send(
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
                  done.complete(
                      new Exchange(
                          result.getResponse().getStatus(), bytes, System.nanoTime() - start));
                }
              }
            });
    return done.get(REQUEST_TIMEOUT_SECONDS + 5, TimeUnit.SECONDS);
  }

  /** {@code GET path} as text (the stats endpoint). */
  public String getString(int port, String path) throws Exception {
    ContentResponse response =
        client
            .newRequest(URI.create("http://127.0.0.1:" + port + path))
            .timeout(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .send();
    if (response.getStatus() != 200) {
      throw new IllegalStateException("GET " + path + " answered " + response.getStatus());
    }
    return response.getContentAsString();
  }

  /**
   * What an open-loop run measured.
   *
   * @param latency microseconds from each request's scheduled time to its complete 2xx response
   * @param lag microseconds from each request's scheduled time to the moment the generator got
   *     round to sending it (or queueing it for the next free connection): the generator's own part
   *     of the latency
   * @param targetRate the schedule's requests per second
   * @param sent requests sent
   * @param ok 2xx responses
   * @param errors other statuses, broken connections and requests still unanswered at the end
   * @param achievedRate 2xx responses per second, from the first scheduled request to the last
   *     response
   * @param maxSendLagMicros how late the generator itself sent its latest request
   * @param statuses responses by status code
   * @param generatorCpuNanos this JVM's CPU time over the run
   */
  public record RateRun(
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
    public double generatorCpuMicrosPerRequest() {
      return generatorCpuNanos / 1000.0 / Math.max(1, sent);
    }

    public double p99Millis() {
      return latency.getValueAtPercentile(99) / 1000.0;
    }

    public double lagP99Millis() {
      return lag.getValueAtPercentile(99) / 1000.0;
    }

    /**
     * Whether the generator kept its schedule well enough for the latency it reports: its p99 lag
     * is at most a tenth of the p99 latency. A phase that fails this is not measurable on this
     * machine, whatever its figures.
     */
    public boolean measurable() {
      return Lag.measurable(lag.getValueAtPercentile(99), latency.getValueAtPercentile(99));
    }
  }

  /**
   * What a closed-loop run measured: every connection sends its next request as soon as the
   * previous answer is complete.
   *
   * @param latency microseconds from each send to its complete 2xx response
   * @param rate 2xx responses per second over the run: the peak throughput at this concurrency
   */
  public record ClosedRun(
      Histogram latency,
      int connections,
      long ok,
      long errors,
      double rate,
      double seconds,
      Map<Integer, Long> statuses,
      long generatorCpuNanos) {

    public double generatorCpuMicrosPerRequest() {
      return generatorCpuNanos / 1000.0 / Math.max(1, ok + errors);
    }
  }

  /** Connections of a closed-loop run unless told otherwise. */
  public static final int CLOSED_LOOP_CONNECTIONS = 16;

  /** Connections of an open-loop run: enough that a slow answer seldom makes a request queue. */
  public static final int OPEN_LOOP_CONNECTIONS = 32;

  /**
   * Sends {@code load} to 127.0.0.1:{@code port} at {@code rate} requests per second for {@code
   * duration}, then waits (a bounded time) for the answers. Latency counts from each request's
   * scheduled time (no coordinated omission).
   */
  public RateRun openLoop(int port, Load load, double rate, Duration duration) {
    return openLoop(port, load, rate, duration, OPEN_LOOP_CONNECTIONS);
  }

  public RateRun openLoop(int port, Load load, double rate, Duration duration, int connections) {
    return openLoop(port, load, rate, duration, connections, outcome -> {});
  }

  /**
   * One request of an open-loop run, as it ended.
   *
   * @param intendedNanos when the schedule meant to send it ({@link System#nanoTime()})
   * @param sentNanos when it went out on a connection
   * @param doneNanos when its response completed or its connection broke
   * @param status the response's status, or -1 when the connection broke first
   */
  public record Outcome(long intendedNanos, long sentNanos, long doneNanos, int status) {}

  /**
   * {@link #openLoop(int, Load, double, Duration, int)}, also handing each request that went out
   * its {@link Outcome} (on the generator's selector thread, as requests end), for callers that
   * classify them. Requests never sent (no connection could be made) have none.
   */
  public RateRun openLoop(
      int port,
      Load load,
      double rate,
      Duration duration,
      int connections,
      Consumer<Outcome> each) {
    try {
      return NioLoad.openLoop(loopback(port), load, rate, duration, connections, each);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, e);
    }
  }

  /**
   * Saturates the server: {@code connections} keep-alive connections, each sending its next request
   * as soon as the previous answer is complete, for {@code duration}.
   */
  public ClosedRun closedLoop(int port, Load load, int connections, Duration duration) {
    try {
      return NioLoad.closedLoop(loopback(port), load, connections, duration);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, e);
    }
  }

  private static InetSocketAddress loopback(int port) {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
  }

  private Request newRequest(int port, Load load) {
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
    return request;
  }

  @Override
  public void close() throws Exception {
    client.stop();
  }
}
