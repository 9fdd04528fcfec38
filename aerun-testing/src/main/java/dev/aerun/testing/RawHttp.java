package dev.aerun.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTTP/1.1 connection on a plain socket to {@code 127.0.0.1}, so that a test controls every byte
 * it sends (header case, order and repeats, chunk sizes, requests no real client would send) and
 * sees every byte it gets back. Responses are read with {@link ResponseParser}, one at a time, so a
 * connection may carry several; {@link #exchange} is the one-shot form for a request that ends the
 * connection.
 *
 * <p>A connection is used by one thread, except that one other thread may write while this one
 * reads: a server may answer (413, 400) before it has read a body, and a client that only reads
 * after writing would block or lose the answer to a reset.
 */
public final class RawHttp implements AutoCloseable {
  /** How long a read or a connect may wait. */
  public static final int TIMEOUT_MILLIS = 60_000;

  private final Socket socket;
  private final Reader reader;

  private RawHttp(Socket socket) throws IOException {
    this.socket = socket;
    this.reader = new Reader(socket.getInputStream());
  }

  /** A new connection to {@code 127.0.0.1:port}; a read waits {@link #TIMEOUT_MILLIS} at most. */
  public static RawHttp connect(int port) throws IOException {
    return connect(port, Duration.ofMillis(TIMEOUT_MILLIS));
  }

  /** A new connection to {@code 127.0.0.1:port} whose reads wait {@code timeout} at most. */
  public static RawHttp connect(int port, Duration timeout) throws IOException {
    return connect(InetAddress.getLoopbackAddress(), port, timeout);
  }

  /**
   * A new connection from {@code address} of this machine to its {@code port} on the same address:
   * to the server, a client at that address (e.g. this machine's network address, not loopback).
   * Reads wait {@code timeout} at most.
   */
  public static RawHttp connect(InetAddress address, int port, Duration timeout)
      throws IOException {
    Socket socket = new Socket();
    try {
      socket.bind(new InetSocketAddress(address, 0));
      socket.connect(new InetSocketAddress(address, port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      socket.setTcpNoDelay(true);
      return new RawHttp(socket);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /**
   * Sends {@code request} on a new connection, closes the sending side and returns everything the
   * server sent until it closed the connection, as ISO-8859-1 text.
   */
  public static String exchange(int port, byte[] request) throws IOException {
    try (RawHttp connection = connect(port)) {
      connection.write(request);
      connection.socket.shutdownOutput();
      return connection.readToEnd();
    }
  }

  /** {@link #exchange(int, byte[])} of ISO-8859-1 text. */
  public static String exchange(int port, String request) throws IOException {
    return exchange(port, request.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** {@code body} in the chunked transfer coding, in chunks of {@code chunkSize}. */
  public static byte[] chunked(byte[] body, int chunkSize) {
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

  /** The client side's port: the peer port the server sees. */
  public int localPort() {
    return socket.getLocalPort();
  }

  /** The socket's output, for a writer of its own (flush what you write). */
  public OutputStream output() throws IOException {
    return socket.getOutputStream();
  }

  /** Writes and flushes {@code bytes}. */
  public RawHttp write(byte[] bytes) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(bytes);
    out.flush();
    return this;
  }

  /** Writes and flushes ISO-8859-1 {@code text}. */
  public RawHttp write(String text) throws IOException {
    return write(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  /**
   * Reads the next response whole, body and raw bytes kept. A connection that ends or fails early
   * gives what came, with {@link RawResponse#error()} saying how it ended.
   *
   * @param head whether the request was a {@code HEAD} (the answer has no body)
   */
  public RawResponse readResponse(boolean head) {
    return reader.readResponse(head, null, () -> {});
  }

  /**
   * Reads the next response, its body to {@code body} (the response keeps neither body nor raw
   * bytes), calling {@code onInterim} after each 1xx answer (e.g. to send a body held back for
   * {@code 100 Continue}).
   */
  public RawResponse readResponse(boolean head, OutputStream body, Runnable onInterim) {
    return reader.readResponse(head, body, onInterim);
  }

  /** Everything the server sends until it closes the connection, as ISO-8859-1 text. */
  public String readToEnd() throws IOException {
    return reader.readToEnd();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** Reads responses off a stream; bytes after one response stay for the next. */
  static final class Reader implements AutoCloseable {
    private final InputStream in;
    private final byte[] bytes = new byte[64 * 1024];
    private ByteBuffer buffer = ByteBuffer.allocate(0);
    private Collector collector;
    private final ResponseParser parser =
        new ResponseParser(
            new ResponseParser.Listener() {
              @Override
              public void statusLine(String line) {
                collector.statusLine = line;
                collector.pendingHeaders = new ArrayList<>();
              }

              @Override
              public void header(String line) {
                collector.pendingHeaders.add(line);
              }

              @Override
              public void endOfHead(boolean interim) {
                collector.endOfHead(interim);
              }

              @Override
              public void body(ByteBuffer body) {
                collector.body(body);
              }

              @Override
              public void trailer(String line) {
                collector.trailers.add(line);
              }
            });

    Reader(InputStream in) {
      this.in = in;
    }

    RawResponse readResponse(boolean head, OutputStream sink, Runnable onInterim) {
      collector = new Collector(sink, onInterim);
      parser.expectNoBody(head);
      try {
        while (true) {
          if (!buffer.hasRemaining()) {
            int n = in.read(bytes);
            if (n < 0) {
              return parser.readsUntilClose()
                  ? collector.response(true, null)
                  : collector.response(
                      false, parser.atResponseStart() ? "closed before a response" : "closed");
            }
            buffer = ByteBuffer.wrap(bytes, 0, n);
          }
          int start = buffer.position();
          boolean done = parser.parse(buffer);
          collector.raw(bytes, start, buffer.position() - start);
          if (done) {
            return collector.response(true, null);
          }
        }
      } catch (SocketTimeoutException e) {
        return collector.response(false, "timeout");
      } catch (SocketException e) {
        String message = e.getMessage();
        return collector.response(
            false, message != null && message.contains("reset") ? "reset" : "closed");
      } catch (IOException | RuntimeException e) {
        return collector.response(false, "unparseable: " + e);
      }
    }

    String readToEnd() throws IOException {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      all.write(bytes, buffer.position(), buffer.remaining());
      buffer = ByteBuffer.allocate(0);
      in.transferTo(all);
      return all.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
      try {
        in.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** One response as it comes in. */
  private static final class Collector {
    final List<String> interim = new ArrayList<>();
    final List<String> trailers = new ArrayList<>();
    final OutputStream sink;
    final ByteArrayOutputStream kept;
    final ByteArrayOutputStream raw;
    final Runnable onInterim;
    String statusLine;
    List<String> pendingHeaders = new ArrayList<>();
    String finalStatusLine;
    List<String> headers = List.of();

    Collector(OutputStream sink, Runnable onInterim) {
      this.onInterim = onInterim;
      this.kept = sink == null ? new ByteArrayOutputStream() : null;
      this.raw = sink == null ? new ByteArrayOutputStream() : null;
      this.sink = sink == null ? kept : sink;
    }

    void endOfHead(boolean isInterim) {
      if (isInterim) {
        interim.add(statusLine);
        onInterim.run();
      } else {
        finalStatusLine = statusLine;
        headers = pendingHeaders;
      }
    }

    void body(ByteBuffer body) {
      try {
        if (body.hasArray()) {
          sink.write(body.array(), body.arrayOffset() + body.position(), body.remaining());
        } else {
          byte[] copy = new byte[body.remaining()];
          body.get(copy);
          sink.write(copy);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void raw(byte[] bytes, int offset, int length) {
      if (raw != null) {
        raw.write(bytes, offset, length);
      }
    }

    RawResponse response(boolean complete, String error) {
      return new RawResponse(
          List.copyOf(interim),
          finalStatusLine,
          List.copyOf(headers),
          kept == null ? "" : kept.toString(StandardCharsets.ISO_8859_1),
          List.copyOf(trailers),
          complete,
          error,
          raw == null ? "" : raw.toString(StandardCharsets.ISO_8859_1));
    }
  }
}
