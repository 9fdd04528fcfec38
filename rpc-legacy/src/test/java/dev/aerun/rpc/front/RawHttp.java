package dev.aerun.rpc.front;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpTester;

/** Raw HTTP/1.1 over a socket: what the test writes is exactly what the server reads. */
final class RawHttp {
  private RawHttp() {}

  /** Sends the head (CRLFs added) and body, returns the response; the socket's local port too. */
  static Exchange send(int port, String head, byte[] body) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write((head.replace("\n", "\r\n") + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) {
        out.write(body);
      }
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      HttpTester.Input input = HttpTester.from(new TeeInputStream(in, raw));
      HttpTester.Response response = HttpTester.parseResponse(input, head.startsWith("HEAD "));
      return new Exchange(
          response, socket.getLocalPort(), raw.toString(StandardCharsets.ISO_8859_1));
    }
  }

  static Exchange get(int port, String path, String... headers) throws IOException {
    StringBuilder head = new StringBuilder("GET " + path + " HTTP/1.1\nHost: front.test\n");
    for (String header : headers) {
      head.append(header).append('\n');
    }
    head.append("Connection: close\n");
    return send(port, head.toString(), null);
  }

  /** A chunked body in chunks of {@code chunkSize}. */
  static byte[] chunked(byte[] body, int chunkSize) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int at = 0; at < body.length; at += chunkSize) {
      int n = Math.min(chunkSize, body.length - at);
      out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body, at, n);
      out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /**
   * @param response the parsed response (null when the server closed without one)
   * @param clientPort the client side's port, i.e. the peer port the server saw
   * @param raw the bytes received, as text
   */
  record Exchange(HttpTester.Response response, int clientPort, String raw) {}

  private static final class TeeInputStream extends InputStream {
    private final InputStream in;
    private final ByteArrayOutputStream copy;

    TeeInputStream(InputStream in, ByteArrayOutputStream copy) {
      this.in = in;
      this.copy = copy;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        copy.write(b);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(buffer, offset, length);
      if (n > 0) {
        copy.write(buffer, offset, n);
      }
      return n;
    }
  }
}
