package dev.aerun.e2e.parity;

import dev.aerun.e2e.parity.ParityCase.Header;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An HTTP/1.1 client on a plain socket, so a case controls every byte: header case, order and
 * repeats, chunk sizes, and requests no real client would send. One request per connection.
 *
 * <p>The request is written on its own thread while this one reads the answer: a server may answer
 * (413, 400) before it has read the body, and a client that only reads after writing would block or
 * lose the answer to a reset.
 */
final class RawClient {
  private static final int TIMEOUT_MILLIS = 60_000;

  /** How long to wait for {@code 100 Continue} before sending the body anyway, as curl does. */
  private static final long CONTINUE_WAIT_MILLIS = 2_000;

  private RawClient() {}

  /** Sends the case to {@code 127.0.0.1:port} and reads the answer. */
  static Exchange exchange(ParityCase c, int port) throws IOException, InterruptedException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(TIMEOUT_MILLIS);
      socket.setTcpNoDelay(true);
      boolean expectContinue =
          !c.isRaw()
              && c.headers().stream()
                  .anyMatch(
                      h ->
                          h.name().equalsIgnoreCase("Expect")
                              && h.value().equalsIgnoreCase("100-continue"));
      CountDownLatch continued = new CountDownLatch(1);
      AtomicReference<Exchange.Sent> sent = new AtomicReference<>();
      Thread writer =
          new Thread(
              () -> sent.set(write(c, port, socket, expectContinue ? continued : null)),
              "parity-writer");
      writer.setDaemon(true);
      writer.start();
      Exchange.Sent nothing = new Exchange.Sent(-1, null);
      Response response = read(socket, "HEAD".equals(c.method()), continued);
      // Unblock a writer still waiting for 100 Continue, then stop it by closing the socket.
      continued.countDown();
      socket.close();
      writer.join(TIMEOUT_MILLIS);
      Exchange.Sent written = sent.get() == null ? nothing : sent.get();
      return new Exchange(
          response.interim,
          response.statusLine,
          response.headers,
          response.body,
          response.complete,
          response.error,
          written,
          socket.getLocalPort(),
          port);
    }
  }

  /** Writes the request; returns what body it sent, or null if the connection failed first. */
  private static Exchange.Sent write(
      ParityCase c, int port, Socket socket, CountDownLatch continued) {
    String runtimeHost = "127.0.0.1:" + port;
    MessageDigest digest = BodyCapture.sha256();
    try {
      OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
      if (c.isRaw()) {
        out.write(
            c.raw()
                .replace(ParityCase.RUNTIME_HOST, runtimeHost)
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
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
      return body.length() < 0
          ? new Exchange.Sent(-1, null)
          : new Exchange.Sent(body.length(), HexFormat.of().formatHex(digest.digest()));
    } catch (IOException e) {
      return null; // the server stopped reading: what it answered is what counts
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** A response as parsed. */
  private static final class Response {
    final List<String> interim = new ArrayList<>();
    final List<Header> headers = new ArrayList<>();
    final BodyCapture body = new BodyCapture();
    String statusLine;
    boolean complete;
    String error;
  }

  private static Response read(Socket socket, boolean head, CountDownLatch continued) {
    Response r = new Response();
    try {
      InputStream in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
      while (true) {
        String statusLine = readLine(in);
        if (statusLine == null) {
          r.error = "closed before a response";
          return r;
        }
        List<Header> headers = readHeaders(in);
        int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
        if (status >= 100 && status < 200 && status != 101) {
          r.interim.add(statusLine);
          continued.countDown();
          continue;
        }
        r.statusLine = statusLine;
        r.headers.addAll(headers);
        readBody(in, r, head || status == 204 || status == 304);
        return r;
      }
    } catch (SocketTimeoutException e) {
      r.error = "timeout";
    } catch (EOFException e) {
      r.error = "closed";
    } catch (SocketException e) {
      r.error = e.getMessage() != null && e.getMessage().contains("reset") ? "reset" : "closed";
    } catch (IOException | RuntimeException e) {
      r.error = "unparseable: " + e;
    }
    return r;
  }

  private static void readBody(InputStream in, Response r, boolean noBody) throws IOException {
    if (noBody) {
      r.complete = true;
      return;
    }
    String transferEncoding = headerValue(r.headers, "Transfer-Encoding");
    String contentLength = headerValue(r.headers, "Content-Length");
    byte[] buffer = new byte[64 * 1024];
    if (transferEncoding != null && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
      while (true) {
        String sizeLine = readLine(in);
        if (sizeLine == null) {
          throw new EOFException();
        }
        int semicolon = sizeLine.indexOf(';');
        long size =
            Long.parseLong(
                (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
        if (size == 0) {
          readHeaders(in); // trailers, if any
          r.complete = true;
          return;
        }
        copy(in, r.body, size, buffer);
        if (!"".equals(readLine(in))) {
          throw new IOException("chunk not followed by CRLF");
        }
      }
    } else if (contentLength != null) {
      copy(in, r.body, Long.parseLong(contentLength.trim()), buffer);
      r.complete = true;
    } else {
      // Delimited by the connection's end.
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        r.body.add(buffer, 0, n);
      }
      r.complete = true;
    }
  }

  private static void copy(InputStream in, BodyCapture to, long count, byte[] buffer)
      throws IOException {
    long left = count;
    while (left > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw new EOFException();
      }
      to.add(buffer, 0, n);
      left -= n;
    }
  }

  private static List<Header> readHeaders(InputStream in) throws IOException {
    List<Header> headers = new ArrayList<>();
    for (String line = readLine(in); ; line = readLine(in)) {
      if (line == null) {
        throw new EOFException();
      }
      if (line.isEmpty()) {
        return headers;
      }
      int colon = line.indexOf(':');
      headers.add(new Header(line.substring(0, colon), line.substring(colon + 1).trim()));
    }
  }

  private static String headerValue(List<Header> headers, String name) {
    for (Header h : headers) {
      if (h.name().equalsIgnoreCase(name)) {
        return h.value();
      }
    }
    return null;
  }

  /** A line without its CRLF, as ISO-8859-1; null at the end of the stream before any byte. */
  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(128);
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (line.size() == 0) {
          return null;
        }
        throw new EOFException();
      }
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        int length =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
    }
  }
}
