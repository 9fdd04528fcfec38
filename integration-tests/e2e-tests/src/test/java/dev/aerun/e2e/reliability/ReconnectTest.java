package dev.aerun.e2e.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.e2e.Http;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A split legacy front end reconnects soon once its runtime serves again, rather than after gRPC's
 * growing backoff (about 8 s after a few seconds without a runtime, two minutes at most).
 *
 * <p>The front end reaches the runtime through a {@link Gate} on its {@code --rpc-target}: first
 * closing every connection at once (a runtime that is not there: each close is one failed connect
 * attempt, which the gate counts), then forwarding to a runtime that serves. The gate opens right
 * after a failed attempt, once gRPC's backoff has grown past {@link #GROWN_BACKOFF_NANOS} between
 * two attempts (or after {@link #ATTEMPTS_BEFORE_OPENING} attempts, when they keep coming fast):
 * with gRPC's backoff alone the next attempt, hence the first 200, comes at least 5.2 s later (the
 * next backoff is 1.6 × the last, less 20 % jitter); with the front end's reconnect nudge it comes
 * a quarter of a second later. The bound between the two is generous for a loaded machine. The
 * figure asserted is the reconnect (the front end's first connection once the gate opened); the
 * first 200, which also pays for a cold runtime's first request, is reported beside it.
 */
class ReconnectTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  private static final long GROWN_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(3);
  private static final int ATTEMPTS_BEFORE_OPENING = 8;
  private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(4);

  @Test
  void splitFrontEnd_servesSoonAfterItsRuntimeComesBack() throws Exception {
    RuntimeProcess back =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
                .args("--role", "runtime", "--rpc-listen", "tcp:127.0.0.1:0"));
    int runtimePort =
        Integer.parseInt(
            back.awaitOutput(Pattern.compile("serving gRPC at tcp:127\\.0\\.0\\.1:(\\d+)"))
                .group(1));
    try (Gate gate = new Gate(runtimePort)) {
      RuntimeProcess front =
          runtimes.start(
              RuntimeProcess.launch(null)
                  .args("--role", "front", "--rpc-target", "tcp:127.0.0.1:" + gate.port()));
      HttpClient client = Http.newClient();
      HttpRequest hello =
          HttpRequest.newBuilder(front.uri("/hello")).timeout(Duration.ofSeconds(30)).build();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      int unavailable = 0;
      while (!gate.isOpen()) {
        assertTrue(System.nanoTime() < deadline, "the gate never opened: " + gate.attempts());
        HttpResponse<String> response = client.send(hello, HttpResponse.BodyHandlers.ofString());
        assertEquals(503, response.statusCode(), "while the runtime is away");
        unavailable++;
        Thread.sleep(100);
      }
      long firstOk = -1;
      while (System.nanoTime() < deadline) {
        HttpResponse<String> response = client.send(hello, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          firstOk = System.nanoTime();
          break;
        }
        assertEquals(503, response.statusCode());
        unavailable++;
        Thread.sleep(50);
      }
      assertTrue(firstOk > 0, "never 200 after the runtime came back");
      // The reconnect itself: the front end's first connection the gate forwarded. The first 200
      // comes after it plus a first request through a cold runtime, reported beside it.
      long reconnect = gate.firstForwardedAt() - gate.openedAt();
      String figures =
          String.format(
              "front end reconnected %d ms and served its first 200 %d ms after the runtime was"
                  + " reachable; failed attempts at (ms) %s; 503s: %d",
              TimeUnit.NANOSECONDS.toMillis(reconnect),
              TimeUnit.NANOSECONDS.toMillis(firstOk - gate.openedAt()),
              gate.attempts(),
              unavailable);
      System.out.println("ReconnectTest: " + figures);
      // Before the nudge (or with it firing only once): 5.2 s or more, gRPC's next backoff.
      assertTrue(reconnect <= BOUND_NANOS, figures);
    }
  }

  /**
   * A TCP port in front of the runtime's: closes each connection at once until it opens, then
   * forwards each to the runtime.
   */
  private static final class Gate implements AutoCloseable {
    private final int target;
    private final ServerSocket server;
    private final List<Long> attempts = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final long created = System.nanoTime();
    private volatile long openedAt = -1;
    private volatile long firstForwardedAt = -1;

    Gate(int target) throws IOException {
      this.target = target;
      this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread accept = new Thread(this::accept, "gate-accept");
      accept.setDaemon(true);
      accept.start();
    }

    int port() {
      return server.getLocalPort();
    }

    boolean isOpen() {
      return openedAt > 0;
    }

    long openedAt() {
      return openedAt;
    }

    /** When the first connection after opening came, or -1. */
    long firstForwardedAt() {
      return firstForwardedAt;
    }

    /** The failed attempts, in ms since the gate was made. */
    synchronized List<Long> attempts() {
      return attempts.stream().map(TimeUnit.NANOSECONDS::toMillis).toList();
    }

    private void accept() {
      try {
        while (true) {
          Socket socket = server.accept();
          if (isOpen()) {
            if (firstForwardedAt < 0) {
              firstForwardedAt = System.nanoTime();
            }
            forward(socket);
            continue;
          }
          long now = System.nanoTime();
          socket.close();
          synchronized (this) {
            long previous = attempts.isEmpty() ? -1 : attempts.get(attempts.size() - 1) + created;
            attempts.add(now - created);
            if ((previous > 0 && now - previous >= GROWN_BACKOFF_NANOS)
                || attempts.size() >= ATTEMPTS_BEFORE_OPENING) {
              openedAt = now;
            }
          }
        }
      } catch (IOException closed) {
        // The test is over.
      }
    }

    private void forward(Socket client) throws IOException {
      Socket runtime = new Socket(InetAddress.getLoopbackAddress(), target);
      synchronized (this) {
        sockets.add(client);
        sockets.add(runtime);
      }
      pump(client, runtime);
      pump(runtime, client);
    }

    private static void pump(Socket from, Socket to) {
      Thread thread =
          new Thread(
              () -> {
                try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                  byte[] buffer = new byte[16384];
                  for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                  }
                } catch (IOException closed) {
                  // One side went away.
                } finally {
                  try {
                    to.shutdownOutput();
                  } catch (IOException ignored) {
                    // Already closed.
                  }
                }
              },
              "gate-pump");
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public void close() throws IOException {
      server.close();
      synchronized (this) {
        for (Socket socket : sockets) {
          socket.close();
        }
      }
    }
  }
}
