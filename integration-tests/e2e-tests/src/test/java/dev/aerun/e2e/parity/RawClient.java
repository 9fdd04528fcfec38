package dev.aerun.e2e.parity;

import dev.aerun.e2e.parity.ParityCase.Header;
import dev.aerun.testing.RawHttp;
import dev.aerun.testing.RawResponse;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends a {@link ParityCase} on its own connection ({@link RawHttp}), so a case controls every
 * byte: header case, order and repeats, chunk sizes, and requests no real client would send.
 *
 * <p>The request is written on its own thread while this one reads the answer: a server may answer
 * (413, 400) before it has read the body, and a client that only reads after writing would block or
 * lose the answer to a reset.
 */
final class RawClient {
  /** How long to wait for {@code 100 Continue} before sending the body anyway, as curl does. */
  private static final long CONTINUE_WAIT_MILLIS = 2_000;

  private RawClient() {}

  /** Sends the case to {@code 127.0.0.1:port} and reads the answer. */
  static Exchange exchange(ParityCase c, int port) throws IOException, InterruptedException {
    long startNanos = System.nanoTime();
    try (RawHttp connection = RawHttp.connect(port)) {
      boolean expectContinue =
          !c.isRaw()
              && c.headers().stream()
                  .anyMatch(
                      h ->
                          h.name().equalsIgnoreCase("Expect")
                              && h.value().equalsIgnoreCase("100-continue"));
      CountDownLatch continued = new CountDownLatch(1);
      AtomicReference<Exchange.Sent> sent = new AtomicReference<>();
      Progress progress = new Progress();
      Thread writer =
          new Thread(
              () ->
                  sent.set(write(c, port, connection, expectContinue ? continued : null, progress)),
              "parity-writer");
      writer.setDaemon(true);
      writer.start();
      Exchange.Sent nothing = new Exchange.Sent(-1, null);
      BodyCapture body = new BodyCapture();
      RawResponse response =
          connection.readResponse("HEAD".equals(c.method()), body, continued::countDown);
      String error = response.error();
      if (error != null && response.statusLine() == null) {
        // No answer at all: say how far the request had come, so a failure shows who ended it.
        error += progress.describe(startNanos);
      }
      // Unblock a writer still waiting for 100 Continue, then stop it by closing the socket.
      continued.countDown();
      connection.close();
      writer.join(RawHttp.TIMEOUT_MILLIS);
      Exchange.Sent written = sent.get() == null ? nothing : sent.get();
      List<Header> headers = new ArrayList<>();
      for (String line : response.headers()) {
        int colon = line.indexOf(':');
        headers.add(
            colon < 0
                ? new Header(line, "")
                : new Header(line.substring(0, colon), line.substring(colon + 1).trim()));
      }
      return new Exchange(
          response.interim(),
          response.statusLine(),
          headers,
          body,
          response.complete(),
          error,
          written,
          connection.localPort(),
          port);
    }
  }

  /** Writes the request; returns what body it sent, or null if the connection failed first. */
  private static Exchange.Sent write(
      ParityCase c, int port, RawHttp connection, CountDownLatch continued, Progress progress) {
    String runtimeHost = "127.0.0.1:" + port;
    MessageDigest digest = BodyCapture.sha256();
    try {
      OutputStream out =
          new BufferedOutputStream(progress.counting(connection.output()), 64 * 1024);
      if (c.isRaw()) {
        out.write(
            c.raw()
                .replace(ParityCase.RUNTIME_HOST, runtimeHost)
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        progress.finished = true;
        return new Exchange.Sent(-1, null);
      }
      StringBuilder head = new StringBuilder();
      head.append(c.method()).append(' ').append(c.target()).append(" HTTP/1.1\r\n");
      if (c.host() != null) {
        head.append("Host: ").append(c.host().replace(ParityCase.RUNTIME_HOST, runtimeHost));
        head.append("\r\n");
      }
      for (Header h : c.headers()) {
        head.append(h.name()).append(": ").append(h.value()).append("\r\n");
      }
      Body body = c.body();
      if (body.chunkedEncoding()) {
        head.append("Transfer-Encoding: chunked\r\n");
      } else if (body.length() >= 0) {
        head.append("Content-Length: ").append(body.length()).append("\r\n");
      }
      head.append("\r\n");
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      if (continued != null) {
        continued.await(CONTINUE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
      }
      body.writeTo(out, digest);
      out.flush();
      progress.finished = true;
      return body.length() < 0
          ? new Exchange.Sent(-1, null)
          : new Exchange.Sent(body.length(), HexFormat.of().formatHex(digest.digest()));
    } catch (IOException e) {
      progress.failure = e.toString();
      return null; // the server stopped reading: what it answered is what counts
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** How much of the request the writer got into the socket, and how its writing ended. */
  private static final class Progress {
    final AtomicLong written = new AtomicLong();
    volatile boolean finished;
    volatile String failure;

    OutputStream counting(OutputStream socket) {
      return new FilterOutputStream(socket) {
        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
          out.write(bytes, offset, length);
          written.addAndGet(length);
        }

        @Override
        public void write(int b) throws IOException {
          out.write(b);
          written.incrementAndGet();
        }
      };
    }

    /** E.g. {@code " after 71702 request bytes written (all of them), 35 ms in"}. */
    String describe(long startNanos) {
      return " after "
          + written.get()
          + " request bytes written ("
          + (finished ? "all of them" : failure != null ? "then " + failure : "still writing")
          + "), "
          + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)
          + " ms in";
    }
  }
}
