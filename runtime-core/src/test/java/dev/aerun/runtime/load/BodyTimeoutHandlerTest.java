package dev.aerun.runtime.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import dev.aerun.testing.RawHttp;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.util.thread.Scheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The body bound on a real server. The app reads the body asynchronously, as the legacy front end
 * does, and answers {@code read N} or the status of the failure its read met.
 */
class BodyTimeoutHandlerTest {
  private final BlockingQueue<Object> outcomes = new LinkedBlockingQueue<>();

  /** Timers the handler scheduled. */
  private final AtomicInteger timersScheduled = new AtomicInteger();

  private Server server;
  private ServerConnector connector;

  /** How long the app waits before it reads the body. */
  private volatile long readDelayMillis;

  private void start(Duration timeout) throws Exception {
    start(timeout, BodyTimeoutHandler.MinRate.NONE);
  }

  private void start(Duration timeout, BodyTimeoutHandler.MinRate minRate) throws Exception {
    Scheduler scheduler =
        new ScheduledExecutorScheduler() {
          @Override
          public Task schedule(Runnable task, long delay, TimeUnit unit) {
            if (task.getClass().getName().startsWith(BodyTimeoutHandler.class.getName())) {
              timersScheduled.incrementAndGet(); // the handler's, not the connections' own
            }
            return super.schedule(task, delay, unit);
          }
        };
    server = new Server(null, scheduler, null);
    server.setErrorHandler(new NoDetailsErrorHandler());
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(
        new BodyTimeoutHandler(
            timeout,
            minRate,
            new Handler.Abstract() {
              @Override
              public boolean handle(Request request, Response response, Callback callback) {
                Reader reader = new Reader(request, response, callback);
                if (readDelayMillis > 0) {
                  request
                      .getComponents()
                      .getScheduler()
                      .schedule(reader, readDelayMillis, TimeUnit.MILLISECONDS);
                } else {
                  reader.run();
                }
                return true;
              }
            }));
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  /** Reads with read()/demand(), never blocking. */
  private final class Reader implements Runnable {
    private final Request request;
    private final Response response;
    private final Callback callback;
    private long read;

    Reader(Request request, Response response, Callback callback) {
      this.request = request;
      this.response = response;
      this.callback = callback;
    }

    @Override
    public void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          Throwable failure = chunk.getFailure();
          outcomes.add(failure);
          int status = failure instanceof HttpException http ? http.getCode() : 500;
          Response.writeError(request, response, callback, status);
          return;
        }
        read += chunk.remaining();
        chunk.release();
        if (chunk.isLast()) {
          outcomes.add(read);
          Content.Sink.write(response, true, "read " + read, callback);
          return;
        }
      }
    }
  }

  /** A connection on which a POST's head announcing {@code contentLength} bytes is sent. */
  private RawHttp post(int contentLength) throws IOException {
    return RawHttp.connect(connector.getLocalPort())
        .write(
            "POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: " + contentLength + "\r\n\r\n");
  }

  /** Sends a byte every 200 ms on a thread of its own: never idle, far too slow. */
  private static Thread trickle(OutputStream out) {
    Thread trickler =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < 100; i++) {
                  out.write('x');
                  out.flush();
                  Thread.sleep(200);
                }
              } catch (IOException | InterruptedException closed) {
                // The server gave up on the body.
              }
            });
    trickler.start();
    return trickler;
  }

  @Test
  void tricklingBody_readFailsWith408_andTheConnectionCloses() throws Exception {
    start(Duration.ofMillis(500));
    try (RawHttp connection = post(100)) {
      OutputStream out = connection.output();
      Thread trickler = trickle(out);

      Object outcome = outcomes.poll(30, TimeUnit.SECONDS);

      assertTrue(outcome instanceof HttpException http && http.getCode() == 408, "" + outcome);
      String response = connection.readResponse(false).raw();
      assertTrue(response.startsWith("HTTP/1.1 408 "), response);
      assertTrue(response.contains("Connection: close"), response);
      trickler.interrupt();
      trickler.join();
    }
  }

  @Test
  void tricklingBody_isCutByTheMinimumRate_longBeforeTheTimeout() throws Exception {
    start(Duration.ofSeconds(30), new BodyTimeoutHandler.MinRate(1024, Duration.ofMillis(500)));
    try (RawHttp connection = post(100)) {
      OutputStream out = connection.output();
      long start = System.nanoTime();
      Thread trickler = trickle(out);

      Object outcome = outcomes.poll(30, TimeUnit.SECONDS);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertTrue(outcome instanceof HttpException http && http.getCode() == 408, "" + outcome);
      assertTrue(millis < 15_000, "cut after " + millis + " ms, not at the 30 s timeout");
      assertTrue(connection.readResponse(false).raw().startsWith("HTTP/1.1 408 "));
      trickler.interrupt();
      trickler.join();
    }
  }

  @Test
  void aBodyAboveTheMinimumRate_isReadWhole() throws Exception {
    // 1 KiB every 50 ms (about 20 KiB/s) for over a second, judged from 200 ms on.
    start(Duration.ofSeconds(30), new BodyTimeoutHandler.MinRate(1024, Duration.ofMillis(200)));
    int length = 24 * 1024;
    try (RawHttp connection = post(length)) {
      OutputStream out = connection.output();
      byte[] slice = new byte[1024];
      for (int sent = 0; sent < length; sent += slice.length) {
        out.write(slice);
        out.flush();
        Thread.sleep(50);
      }

      assertEquals((long) length, outcomes.poll(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void theMinimumRateAloneStillWatches_withoutATimeout() throws Exception {
    start(Duration.ZERO, new BodyTimeoutHandler.MinRate(1024, Duration.ofMillis(300)));
    try (RawHttp connection = post(100)) {
      connection.write("half");

      Object outcome = outcomes.poll(30, TimeUnit.SECONDS);

      assertTrue(outcome instanceof HttpException http && http.getCode() == 408, "" + outcome);
    }
  }

  @Test
  void stalledBody_thePendingReadIsWokenWithTheFailure() throws Exception {
    start(Duration.ofMillis(300));
    try (RawHttp connection = post(100)) {
      connection.write("half");

      Object outcome = outcomes.poll(30, TimeUnit.SECONDS);

      assertTrue(outcome instanceof HttpException http && http.getCode() == 408, "" + outcome);
      assertTrue(connection.readResponse(false).raw().startsWith("HTTP/1.1 408 "));
    }
  }

  @Test
  void bodyInTime_isReadWhole() throws Exception {
    start(Duration.ofSeconds(30));
    try (RawHttp connection = post(5)) {
      connection.write("hello");

      assertEquals(5L, outcomes.poll(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void aSteadyPaceExtendsTheBound() throws Exception {
    // 300 ms, plus 1 s per 64 KiB: 128 KiB sent in slices over ~1 s is within the bound.
    start(Duration.ofMillis(300));
    int length = 128 * 1024;
    try (RawHttp connection = post(length)) {
      OutputStream out = connection.output();
      byte[] slice = new byte[16 * 1024];
      for (int sent = 0; sent < length; sent += slice.length) {
        out.write(slice);
        out.flush();
        Thread.sleep(120);
      }

      assertEquals((long) length, outcomes.poll(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void aBodyThatIsAlreadyThere_isReadWithoutATimer() throws Exception {
    start(Duration.ofSeconds(30), BodyTimeoutHandler.MinRate.DEFAULT);
    try (RawHttp connection = RawHttp.connect(connector.getLocalPort())) {
      connection.write("POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n\r\nhello");

      assertEquals(5L, outcomes.poll(30, TimeUnit.SECONDS));
      assertTrue(connection.readResponse(false).raw().startsWith("HTTP/1.1 200 "));
      assertEquals(0, timersScheduled.get(), "the handler's timers scheduled");
    }
  }

  @Test
  void aBodyThatIsAlreadyThere_butReadAfterTheBound_failsWith408() throws Exception {
    // No timer watches a body that never made its reader wait: the late read sees the bound.
    readDelayMillis = 600;
    start(Duration.ofMillis(200));
    try (RawHttp connection = RawHttp.connect(connector.getLocalPort())) {
      connection.write("POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n\r\nhello");

      Object outcome = outcomes.poll(30, TimeUnit.SECONDS);

      assertTrue(outcome instanceof HttpException http && http.getCode() == 408, "" + outcome);
      assertTrue(connection.readResponse(false).raw().startsWith("HTTP/1.1 408 "));
    }
  }

  @Test
  void noBody_noTimer() throws Exception {
    start(Duration.ofMillis(1));
    try (RawHttp connection = RawHttp.connect(connector.getLocalPort())) {
      connection.write("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
      Thread.sleep(50);

      assertTrue(connection.readResponse(false).raw().startsWith("HTTP/1.1 200 "));
    }
  }
}
