package dev.aerun.bench;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
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
 * The load generator: Jetty's asynchronous HTTP client, in this JVM, against 127.0.0.1 only.
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

  private static final long REQUEST_TIMEOUT_SECONDS = 20;

  /** Below this rate the schedule is kept to the microsecond by spinning; above it, by parking. */
  private static final double SPIN_RATE_LIMIT = 5000;

  private final HttpClient client;

  LoadGenerator() throws Exception {
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
    client.start();
  }

  /** What one request of a run sends. */
  record Load(String method, String path, byte[] body) {}

  /** One request, waited for: its status, the response's size and how long it took. */
  record Exchange(int status, long bytes, long nanos) {}

  /** Sends one request and waits for the whole response, counting its bytes, keeping none. */
  Exchange send(int port, Load load) throws Exception {
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
  String getString(int port, String path) throws Exception {
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
   * @param latency microseconds from each request's scheduled time to its complete response
   * @param targetRate the schedule's requests per second
   * @param sent requests sent
   * @param ok 2xx responses
   * @param errors other statuses, failures and requests still unanswered at the end
   * @param achievedRate 2xx responses per second, from the first scheduled request to the last
   *     response
   * @param maxSendLagMicros how late the generator itself sent its latest request
   */
  record RateRun(
      Histogram latency,
      double targetRate,
      long sent,
      long ok,
      long errors,
      double achievedRate,
      long maxSendLagMicros) {}

  /**
   * Sends {@code load} to 127.0.0.1:{@code port} at {@code rate} requests per second for {@code
   * duration}, then waits (a bounded time) for the answers.
   */
  RateRun openLoop(int port, Load load, double rate, Duration duration) {
    ConcurrentHistogram latency = new ConcurrentHistogram(HIGHEST_MICROS, 3);
    AtomicLong ok = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    AtomicLong outstanding = new AtomicLong();
    AtomicLong lastCompletion = new AtomicLong();
    long count = Math.max(1, Math.round(rate * duration.toNanos() / 1e9));
    double periodNanos = 1e9 / rate;
    boolean spin = rate <= SPIN_RATE_LIMIT;
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
    long maxLag = 0;
    for (long i = 0; i < count; i++) {
      long intended = start + (long) (i * periodNanos);
      waitUntil(intended, spin);
      maxLag = Math.max(maxLag, System.nanoTime() - intended);
      outstanding.incrementAndGet();
      newRequest(port, load)
          .send(
              result -> {
                long now = System.nanoTime();
                if (result.isSucceeded() && result.getResponse().getStatus() / 100 == 2) {
                  latency.recordValue(Math.min(HIGHEST_MICROS, (now - intended) / 1000));
                  ok.incrementAndGet();
                } else {
                  errors.incrementAndGet();
                }
                lastCompletion.accumulateAndGet(now, Math::max);
                outstanding.decrementAndGet();
              });
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(REQUEST_TIMEOUT_SECONDS + 5);
    while (outstanding.get() > 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
    Histogram snapshot = latency.copy();
    long okCount = ok.get();
    long errorCount = errors.get() + outstanding.get();
    long end = Math.max(lastCompletion.get(), start + 1);
    double achieved = okCount / ((end - start) / 1e9);
    return new RateRun(snapshot, rate, count, okCount, errorCount, achieved, maxLag / 1000);
  }

  private Request newRequest(int port, Load load) {
    Request request =
        client
            .newRequest("127.0.0.1", port)
            .method(load.method())
            .path(load.path())
            .timeout(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (load.body() != null) {
      request.body(new BytesRequestContent("application/octet-stream", load.body()));
    }
    return request;
  }

  private static void waitUntil(long nanoTime, boolean spin) {
    while (true) {
      long left = nanoTime - System.nanoTime();
      if (left <= 0) {
        return;
      }
      if (!spin) {
        LockSupport.parkNanos(left);
      } else if (left > 70_000) {
        // Parking overshoots by some 50 µs: park until just before, spin the rest.
        LockSupport.parkNanos(left - 60_000);
      } else {
        Thread.onSpinWait();
      }
    }
  }

  @Override
  public void close() throws Exception {
    client.stop();
  }
}
