package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.aerun.bench.LoadGenerator.Load;
import dev.aerun.bench.LoadGenerator.RateRun;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The load generator's engine against a real HTTP server on 127.0.0.1 (the JDK's): every request
 * sent is answered and counted by status, whatever the framing, and connections the server closes
 * are replaced. No assertion on a timing.
 */
class NioLoadTest {
  private static LoadGenerator generator;
  private HttpServer server;
  private final AtomicInteger requests = new AtomicInteger();
  private final List<String> acceptEncodings = new CopyOnWriteArrayList<>();
  private InetSocketAddress address;

  @BeforeAll
  static void startGenerator() throws Exception {
    generator = new LoadGenerator();
  }

  @AfterAll
  static void stopGenerator() throws Exception {
    generator.close();
  }

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.createContext(
        "/hello",
        exchange -> {
          requests.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          byte[] body = "Hello, world!".getBytes(StandardCharsets.US_ASCII);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.createContext(
        "/encoding",
        exchange -> {
          acceptEncodings.add(String.valueOf(exchange.getRequestHeaders().get("Accept-Encoding")));
          exchange.getRequestBody().readAllBytes();
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.createContext(
        "/chunked",
        exchange -> {
          requests.incrementAndGet();
          exchange.sendResponseHeaders(200, 0); // 0: chunked
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(new byte[5000]);
          }
        });
    server.createContext(
        "/close",
        exchange -> {
          requests.incrementAndGet();
          exchange.getResponseHeaders().set("Connection", "close");
          exchange.sendResponseHeaders(200, 2);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(new byte[2]);
          }
        });
    server.createContext(
        "/slow",
        exchange -> {
          requests.incrementAndGet();
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.createContext(
        "/missing",
        exchange -> {
          requests.incrementAndGet();
          exchange.sendResponseHeaders(404, -1);
          exchange.close();
        });
    server.start();
    address =
        new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void openLoop_sendsTheWholeScheduleAndCountsEveryAnswer() throws Exception {
    RateRun run =
        generator.openLoop(
            address.getPort(),
            new Load("POST", "/hello", new byte[1024]),
            200,
            Duration.ofMillis(500),
            4);

    assertEquals(100, run.sent());
    assertEquals(100, run.ok());
    assertEquals(0, run.errors());
    assertEquals(Map.of(200, 100L), run.statuses());
    assertEquals(100, run.latency().getTotalCount());
    assertEquals(100, run.lag().getTotalCount());
    assertEquals(100, requests.get());
    assertTrue(run.generatorCpuNanos() > 0);
  }

  @Test
  void openLoop_requestsThatFindNoIdleConnectionWaitAndGoOutInScheduleOrder() throws Exception {
    // One connection, answers after 20 ms, a request every 10 ms: most requests wait for it.
    RateRun run =
        generator.openLoop(
            address.getPort(), new Load("GET", "/slow", null), 100, Duration.ofMillis(400), 1);

    assertEquals(40, run.sent());
    assertEquals(40, run.ok(), run.statuses().toString());
    assertEquals(0, run.errors());
    assertEquals(40, requests.get());
    // Counted from each request's scheduled time: the last waited for the 39 before it.
    assertTrue(
        run.latency().getMaxValue() >= 39 * 20_000 - 40 * 10_000,
        run.latency().getMaxValue() + " µs");
  }

  @Test
  void openLoop_chunkedAndClosingAndErrorAnswers() throws Exception {
    RateRun chunked =
        generator.openLoop(
            address.getPort(), new Load("GET", "/chunked", null), 100, Duration.ofMillis(300), 2);
    assertEquals(30, chunked.ok());
    assertEquals(0, chunked.errors());

    RateRun closing =
        generator.openLoop(
            address.getPort(), new Load("GET", "/close", null), 100, Duration.ofMillis(300), 2);
    assertEquals(30, closing.ok(), "a closed connection is replaced: " + closing.statuses());
    assertEquals(0, closing.errors());

    RateRun missing =
        generator.openLoop(
            address.getPort(), new Load("GET", "/missing", null), 100, Duration.ofMillis(200), 2);
    assertEquals(0, missing.ok());
    assertEquals(20, missing.errors());
    assertEquals(Map.of(404, 20L), missing.statuses());
    assertEquals(0, missing.latency().getTotalCount(), "latency counts 2xx answers only");
  }

  @Test
  void closedLoop_keepsEveryConnectionBusyAndCountsWhatItSent() throws Exception {
    RateRun run =
        generator.closedLoop(
            address.getPort(), new Load("GET", "/hello", null), 3, Duration.ofMillis(300));

    assertTrue(run.ok() >= 3, "at least one answer per connection: " + run.ok());
    assertEquals(0, run.errors());
    assertEquals(run.ok(), requests.get(), "every request answered, none left over");
    assertEquals(Map.of(200, run.ok()), run.statuses());
    assertTrue(run.achievedRate() > 0);
  }

  @Test
  void singleRequests_askForCompressionOnlyWhenTheLoadSaysSo() throws Exception {
    int port = address.getPort();
    assertEquals(200, generator.send(port, new Load("POST", "/encoding", new byte[10])).status());
    assertEquals(200, generator.send(port, new Load("GET", "/encoding", null, "br")).status());
    generator.getString(port, "/encoding");

    assertEquals(List.of("null", "[br]", "null"), acceptEncodings);
  }

  @Test
  void noServer_isAClearFailure() throws Exception {
    server.stop(0);
    Exception e =
        org.junit.jupiter.api.Assertions.assertThrows(
            java.io.UncheckedIOException.class,
            () ->
                generator.openLoop(
                    address.getPort(), new Load("GET", "/", null), 10, Duration.ofMillis(100)));
    assertTrue(e.getMessage().contains("cannot connect to 127.0.0.1"), e.getMessage());
  }
}
