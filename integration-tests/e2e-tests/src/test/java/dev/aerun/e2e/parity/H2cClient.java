package dev.aerun.e2e.parity;

import dev.aerun.e2e.parity.ParityCase.Header;
import dev.aerun.testing.Http2Sessions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.util.Callback;

/**
 * Sends a {@link ParityCase} over HTTP/2 cleartext with prior knowledge, on a connection of its
 * own, with Jetty's low-level HTTP/2 client: the case's method, target, {@code Host} (as {@code
 * :authority}) and header fields, and its body as {@code DATA} frames ({@code content-length} when
 * the case declares one, none for a chunked one). The answer becomes an {@link Exchange} as {@link
 * RawClient}'s does, its status line {@code HTTP/2.0 <status>}.
 *
 * <p>Not every case has an HTTP/2 form: {@link #cannotSend} says why one has not.
 */
final class H2cClient {
  /** Connection-specific fields, which HTTP/2 forbids in a request (RFC 9113, 8.2.2). */
  private static final Set<String> CONNECTION_SPECIFIC =
      Set.of("connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade");

  private static final long TIMEOUT_SECONDS = 60;

  private static final long CONTINUE_WAIT_MILLIS = 2_000;

  /** The runtime's SETTINGS_MAX_HEADER_LIST_SIZE (its request header limit). */
  private static final long HEADER_LIST_LIMIT = 64 * 1024;

  private H2cClient() {}

  /** Why {@code c} cannot be sent over HTTP/2, or empty when it can. */
  static Optional<String> cannotSend(ParityCase c) {
    if (c.isRaw()) {
      return Optional.of("a raw HTTP/1.1 text (malformed or HTTP/1-only syntax): no HTTP/2 form");
    }
    if (c.host() == null) {
      return Optional.of("no Host: an HTTP/2 request always names its authority");
    }
    if (!c.target().startsWith("/")) {
      return Optional.of("target '" + c.target() + "' is not origin-form, which :path must be");
    }
    if (c.body() instanceof Body.Generated g && g.declaredOnly()) {
      return Optional.of("a body declared and never sent: HTTP/2's is the 408 test in H2cTest");
    }
    long size = c.target().length();
    for (Header h : c.headers()) {
      size += h.name().length() + h.value().length() + 32;
    }
    if (size > HEADER_LIST_LIMIT) {
      return Optional.of(
          "over the 64 KiB header list HTTP/2 announces: refused for the whole connection"
              + " (GOAWAY, H2cTest), not with a status");
    }
    for (Header h : c.headers()) {
      if (!h.value().equals(h.value().strip())) {
        return Optional.of(
            "field value with leading or trailing whitespace, which HTTP/2 forbids"
                + " (RFC 9113, 8.2.1)");
      }
      String name = h.name().toLowerCase(Locale.ROOT);
      if (CONNECTION_SPECIFIC.contains(name)) {
        return Optional.of("connection-specific field " + h.name() + ", forbidden in HTTP/2");
      }
      if (name.equals("te") && !h.value().trim().equalsIgnoreCase("trailers")) {
        return Optional.of("TE other than 'trailers', forbidden in HTTP/2");
      }
      if (name.equals("host")) {
        return Optional.of("a Host field beside the case's own: HTTP/2 has one :authority");
      }
    }
    return Optional.empty();
  }

  /** Sends {@code c} to {@code 127.0.0.1:port} over h2c and reads the answer. */
  static Exchange exchange(ParityCase c, int port) throws Exception {
    String authority = c.host().replace(ParityCase.RUNTIME_HOST, "127.0.0.1:" + port);
    HttpFields.Mutable fields = HttpFields.build();
    for (Header h : c.headers()) {
      fields.add(h.name(), h.value());
    }
    Body body = c.body();
    byte[] content = content(body);
    MessageDigest digest = BodyCapture.sha256();
    if (content != null) {
      digest.update(content);
      if (!body.chunkedEncoding()) {
        fields.put("Content-Length", String.valueOf(content.length));
      }
    }
    MetaData.Request request =
        new MetaData.Request(
            c.method(),
            HttpURI.build().scheme("http").authority(authority).pathQuery(c.target()),
            HttpVersion.HTTP_2,
            fields);
    HTTP2Client client = new HTTP2Client();
    // The runtime's own limit decides, not the client's smaller default.
    client.setMaxRequestHeadersSize((int) HEADER_LIST_LIMIT);
    client.start();
    try {
      // Once the server's SETTINGS apply: a stream opened before may be given too large a window.
      Session session =
          Http2Sessions.connect(
              client,
              new InetSocketAddress("127.0.0.1", port),
              new Session.Listener() {},
              Duration.ofSeconds(TIMEOUT_SECONDS));
      // Read now: once the server has closed the session (after an error answer) it has none.
      InetSocketAddress local = (InetSocketAddress) session.getLocalSocketAddress();
      Answer answer = new Answer(content == null ? 0 : content.length);
      Stream stream =
          session
              .newStream(new HeadersFrame(request, null, content == null), answer)
              .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      Exchange.Sent sent = new Exchange.Sent(-1, null);
      if (content != null && expectsContinue(c)) {
        // As RawClient (and curl): the body waits for 100 Continue, a while.
        try {
          answer.continued.get(CONTINUE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          // send it anyway
        }
      }
      if (content != null) {
        Exchange.Sent written = send(stream, content, answer, digest);
        sent = written == null ? sent : written;
      }
      try {
        answer.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        answer.error = "timeout";
      }
      return new Exchange(
          answer.interim,
          answer.status < 0 ? null : "HTTP/2.0 " + answer.status,
          answer.headers,
          answer.body,
          answer.complete,
          answer.error,
          sent,
          local.getPort(),
          port);
    } finally {
      client.stop();
    }
  }

  private static boolean expectsContinue(ParityCase c) {
    return c.headers().stream()
        .anyMatch(
            h -> h.name().equalsIgnoreCase("Expect") && h.value().equalsIgnoreCase("100-continue"));
  }

  /** The content of {@code body} without HTTP/1.1's chunk framing, or null for none. */
  private static byte[] content(Body body) throws IOException {
    if (body.length() < 0) {
      return null;
    }
    Body unframed = body;
    if (body instanceof Body.Bytes b) {
      unframed = new Body.Bytes(b.content(), false);
    } else if (body instanceof Body.Generated g) {
      unframed = new Body.Generated(g.length(), false, false);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(body.length(), 1 << 20));
    unframed.writeTo(out, BodyCapture.sha256());
    return out.toByteArray();
  }

  /** Writes the body in 16 KiB frames; stops, as a client would, when the answer came first. */
  private static Exchange.Sent send(
      Stream stream, byte[] content, Answer answer, MessageDigest digest) {
    int frame = 16 * 1024;
    try {
      for (int at = 0; at < content.length || at == 0; at += frame) {
        if (answer.done.isDone()) {
          return null;
        }
        int length = Math.min(frame, content.length - at);
        boolean last = at + length >= content.length;
        stream
            .data(new DataFrame(stream.getId(), ByteBuffer.wrap(content, at, length), last))
            .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        answer.sent.addAndGet(length);
        if (last) {
          break;
        }
      }
    } catch (Exception stoppedReading) {
      return null; // the server reset the stream: what it answered is what counts
    }
    return new Exchange.Sent(content.length, HexFormat.of().formatHex(digest.digest()));
  }

  /** Collects the response of one stream. */
  private static final class Answer implements Stream.Listener {
    final long startNanos = System.nanoTime();
    final long bodyLength;
    final AtomicLong sent = new AtomicLong();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    final CompletableFuture<Void> continued = new CompletableFuture<>();
    final List<String> interim = new ArrayList<>();
    final List<Header> headers = new ArrayList<>();
    final BodyCapture body = new BodyCapture();
    volatile int status = -1;
    volatile boolean complete;
    volatile String error;

    Answer(long bodyLength) {
      this.bodyLength = bodyLength;
    }

    /**
     * How far the exchange had come when it ended without an answer, so that a failure says who
     * ended it, why, and when: e.g. {@code reset (cancel_stream_error) after 16777216 of 33554432
     * body bytes, 512 ms in}.
     */
    private String unanswered(String how) {
      return how
          + " after "
          + sent.get()
          + " of "
          + bodyLength
          + " body bytes, "
          + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)
          + " ms in";
    }

    @Override
    public void onHeaders(Stream stream, HeadersFrame frame) {
      if (frame.getMetaData() instanceof MetaData.Response response) {
        continued.complete(null);
        if (response.getStatus() < 200) {
          interim.add("HTTP/2.0 " + response.getStatus());
          return;
        }
        status = response.getStatus();
        response.getHttpFields().forEach(f -> headers.add(new Header(f.getName(), f.getValue())));
      }
      if (frame.isEndStream()) {
        complete = true;
        done.complete(null);
      } else {
        stream.demand();
      }
    }

    @Override
    public void onDataAvailable(Stream stream) {
      Stream.Data data = stream.readData();
      if (data == null) {
        stream.demand();
        return;
      }
      ByteBuffer bytes = data.frame().getByteBuffer();
      byte[] copy = new byte[bytes.remaining()];
      bytes.get(copy);
      body.write(copy, 0, copy.length);
      boolean last = data.frame().isEndStream();
      data.release();
      if (last) {
        complete = true;
        done.complete(null);
      } else {
        stream.demand();
      }
    }

    @Override
    public void onReset(Stream stream, ResetFrame frame, Callback callback) {
      if (status < 0 || !complete) {
        error =
            status < 0
                ? unanswered("reset (" + ErrorCode.toString(frame.getError(), null) + ")")
                : null;
      }
      done.complete(null);
      continued.complete(null);
      callback.succeeded();
    }

    @Override
    public void onFailure(
        Stream stream, int error, String reason, Throwable failure, Callback callback) {
      if (status < 0) {
        this.error =
            unanswered(
                "closed ("
                    + ErrorCode.toString(error, null)
                    + (reason == null ? "" : ", " + reason)
                    + ")");
      }
      done.complete(null);
      callback.succeeded();
    }
  }
}
