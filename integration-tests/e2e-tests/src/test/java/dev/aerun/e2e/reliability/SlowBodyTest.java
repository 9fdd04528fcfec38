package dev.aerun.e2e.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RawHttp;
import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Slow-body clients cannot keep everyone else out: with 4 running slots, eight POSTs that trickle a
 * byte every 1.5 s (never idle long enough for the idle timeout) hold the slots only until the
 * request body bound (2 s here) passes; then they get 408 and other clients are served again.
 */
class SlowBodyTest {
  /** How long the tricklers would go on if nobody stopped them. */
  private static final long TRICKLE_SECONDS = 45;

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void tricklingBodies_releaseTheirSlotsAtTheBound(String mode) throws Exception {
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
            .args("--mode", mode, "--max-concurrent-requests", "4", "--request-body-timeout", "2s")
            .start()) {
      int port = runtime.port(); // waits until it serves
      ExecutorService threads = Executors.newCachedThreadPool();
      AtomicBoolean stop = new AtomicBoolean();
      try {
        List<Future<String>> tricklers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          tricklers.add(threads.submit(() -> trickle(port, stop)));
        }
        Thread.sleep(500); // the tricklers took the slots (and the queue)

        long start = System.nanoTime();
        long servedAfterMillis = -1;
        long until = start + TimeUnit.SECONDS.toNanos(TRICKLE_SECONDS - 5);
        while (System.nanoTime() < until) {
          if (get(port, "/hello").startsWith("HTTP/1.1 200")) {
            servedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            break;
          }
          Thread.sleep(250);
        }

        // 2 s bound, a trickled byte's 1.5 s, and a loaded machine's slack.
        assertTrue(
            servedAfterMillis >= 0 && servedAfterMillis < 20_000,
            "another client waited "
                + servedAfterMillis
                + " ms (-1: never served)\n"
                + runtime.output());
        stop.set(true);
        for (Future<String> trickler : tricklers) {
          String answer = trickler.get(60, TimeUnit.SECONDS);
          assertTrue(
              answer.isEmpty()
                  || answer.startsWith("HTTP/1.1 408 ")
                  || answer.startsWith("HTTP/1.1 503 "),
              answer);
        }
      } finally {
        stop.set(true);
        threads.shutdownNow();
        threads.awaitTermination(60, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * POSTs a 1000-byte body a byte every 1.5 s until the server answers or closes, or {@code stop};
   * returns what the server answered (empty if nothing).
   */
  private static String trickle(int port, AtomicBoolean stop) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(1_500);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      out.write(
          "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(TRICKLE_SECONDS);
      StringBuilder answer = new StringBuilder();
      for (int i = 0; i < 1000 && System.nanoTime() < until && !stop.get(); i++) {
        try {
          out.write('x');
          out.flush();
        } catch (IOException closed) {
          break;
        }
        try {
          byte[] buffer = new byte[8192];
          int n = in.read(buffer); // waits up to 1.5 s: the trickle's pace
          if (n < 0) {
            break;
          }
          answer.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
          break;
        } catch (java.net.SocketTimeoutException nothingYet) {
          // go on trickling
        } catch (IOException reset) {
          break;
        }
      }
      return answer.toString();
    }
  }

  /**
   * A GET on a new connection: its status line, or "" if none came within 10 s (the probe then
   * tries again on a new connection).
   */
  private static String get(int port, String path) throws IOException {
    try (RawHttp connection = RawHttp.connect(port, Duration.ofSeconds(10))) {
      RawResponse response =
          connection
              .write("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
              .readResponse(false);
      return response.statusLine() == null ? "" : response.statusLine();
    } catch (java.net.SocketException noAnswer) {
      return "";
    }
  }
}
