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
 * byte every 1.5 s (never idle long enough for the idle timeout) hold the slots only until a bound
 * passes: the request body bound (2 s here), or by default the minimum body rate (1 KiB/s once a
 * body has had 3 s), long before the 30 s body timeout. Then they get 408 and other clients are
 * served again. An upload at mobile speed (16 KiB/s) is never cut.
 */
class SlowBodyTest {
  /** How long the tricklers would go on if nobody stopped them. */
  private static final long TRICKLE_SECONDS = 45;

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void tricklingBodies_releaseTheirSlotsAtTheBound(String mode) throws Exception {
    // 2 s bound, a trickled byte's 1.5 s, and a loaded machine's slack.
    tricklersReleaseTheirSlotsWithin(
        20_000, "--mode", mode, "--max-concurrent-requests", "4", "--request-body-timeout", "2s");
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void tricklingBodies_areCutByTheMinimumRate_longBeforeTheBodyTimeout(String mode)
      throws Exception {
    // The default 30 s body timeout would hold the slots for 30 s; the minimum rate ends each
    // trickle 3 s after its first byte (plus a trickled byte's 1.5 s and a loaded machine's slack).
    tricklersReleaseTheirSlotsWithin(12_000, "--mode", mode, "--max-concurrent-requests", "4");
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "legacy"})
  void anUploadAtMobileSpeed_isNeverCut(String mode) throws Exception {
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war"))
            .args("--mode", mode, "--max-concurrent-requests", "4")
            .start()) {
      int port = runtime.port();
      int length = 128 * 1024; // 8 s at 16 KiB/s
      try (Socket socket = new Socket("127.0.0.1", port)) {
        socket.setSoTimeout(30_000);
        OutputStream out = socket.getOutputStream();
        out.write(
            ("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + "Content-Type: application/octet-stream\r\nContent-Length: "
                    + length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        byte[] slice = new byte[1024];
        long start = System.nanoTime();
        for (int sent = 0; sent < length; sent += slice.length) {
          // 1 KiB every 62.5 ms: 16 KiB/s, kept to the schedule whatever the writes cost.
          long due = start + TimeUnit.MICROSECONDS.toNanos(62_500L * (sent / slice.length));
          long wait = due - System.nanoTime();
          if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
          }
          out.write(slice);
          out.flush();
        }
        String answer =
            new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertTrue(answer.startsWith("HTTP/1.1 200 "), answer.lines().findFirst().orElse(""));
        int bodyStart = answer.indexOf("\r\n\r\n") + 4;
        if (answer.substring(0, bodyStart).toLowerCase().contains("transfer-encoding: chunked")) {
          assertTrue(answer.endsWith("\r\n0\r\n\r\n"), "the echo was cut off");
        }
        assertTrue(
            answer.length() - bodyStart >= length,
            "echoed " + (answer.length() - bodyStart) + " bytes\n" + runtime.output());
      }
    }
  }

  private static void tricklersReleaseTheirSlotsWithin(long boundMillis, String... args)
      throws Exception {
    try (RuntimeProcess runtime =
        RuntimeProcess.launch(RuntimeProcess.app("sample-ee10-app.war")).args(args).start()) {
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

        assertTrue(
            servedAfterMillis >= 0 && servedAfterMillis < boundMillis,
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
