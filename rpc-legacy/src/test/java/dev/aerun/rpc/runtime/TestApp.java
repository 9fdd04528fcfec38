package dev.aerun.rpc.runtime;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The app of the tests, a Jetty core handler. Each path does one thing:
 *
 * <ul>
 *   <li>{@code /echo}: answers the request body (and its length in {@code X-Length}).
 *   <li>{@code /consume}: reads the body as text, answers its length.
 *   <li>{@code /seen}: records what the app sees of the request in {@link #seen}, answers 204.
 *   <li>{@code /write?n=N[&commitFirst]}: writes N bytes, optionally after flushing 10.
 *   <li>{@code /declare?n=N}: declares {@code Content-Length: N}, then writes nothing.
 *   <li>{@code /fixed}, {@code /chunked}: "abcdef" in one last write, or in two writes.
 *   <li>{@code /headers}: response headers with repeats, in a set order.
 *   <li>{@code /boom}: throws an exception carrying {@link #SECRET}.
 *   <li>{@code /log}: logs three lines through java.util.logging.
 *   <li>{@code /hang}: never answers; records the failure that ends it in {@link #failures}.
 * </ul>
 */
final class TestApp extends Handler.Abstract {
  static final String SECRET = "secret-internal-detail";

  final BlockingQueue<Map<String, Object>> seen = new LinkedBlockingQueue<>();
  final BlockingQueue<Throwable> failures = new LinkedBlockingQueue<>();
  final BlockingQueue<Boolean> hanging = new LinkedBlockingQueue<>();

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    Fields query = Request.extractQueryParameters(request);
    switch (path) {
      case "/echo" -> {
        Content.Source.asByteBufferAsync(request)
            .whenComplete(
                (body, failure) -> {
                  if (failure != null) {
                    callback.failed(failure);
                    return;
                  }
                  response.getHeaders().put("X-Length", Integer.toString(body.remaining()));
                  response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
                  response.write(true, body, callback);
                });
        return true;
      }
      case "/trailers" -> {
        // Every chunk of the body, then the trailers both ways Jetty's EE layers read them.
        StringBuilder out = new StringBuilder();
        Runnable[] reader = new Runnable[1];
        reader[0] =
            () -> {
              while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                  request.demand(reader[0]);
                  return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                  callback.failed(chunk.getFailure());
                  return;
                }
                out.append("chunk ").append(chunk.remaining());
                if (chunk instanceof org.eclipse.jetty.http.Trailers trailers) {
                  trailers.getTrailers().forEach(f -> out.append(' ').append(f));
                }
                out.append(chunk.isLast() ? " last\n" : "\n");
                chunk.release();
                if (chunk.isLast()) {
                  break;
                }
              }
              if (request.getTrailers() != null) {
                request.getTrailers().forEach(f -> out.append("trailer ").append(f).append('\n'));
              }
              Content.Sink.write(response, true, out.toString(), callback);
            };
        reader[0].run();
        return true;
      }
      case "/consume" -> {
        Content.Source.asStringAsync(request, StandardCharsets.ISO_8859_1)
            .whenComplete(
                (body, failure) -> {
                  if (failure != null) {
                    callback.failed(failure);
                  } else {
                    Content.Sink.write(response, true, "read=" + body.length(), callback);
                  }
                });
        return true;
      }
      case "/seen" -> {
        seen.add(snapshot(request));
        response.setStatus(204);
        callback.succeeded();
        return true;
      }
      case "/write" -> {
        ByteBuffer body = ByteBuffer.wrap(new byte[Integer.parseInt(query.getValue("n"))]);
        if (query.get("commitFirst") != null) {
          response.write(
              false,
              ByteBuffer.wrap(new byte[10]),
              Callback.from(() -> response.write(true, body, callback), callback::failed));
        } else {
          response.write(true, body, callback);
        }
        return true;
      }
      case "/declare" -> {
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, Long.parseLong(query.getValue("n")));
        callback.succeeded();
        return true;
      }
      case "/fixed" -> {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        response.write(true, ascii("abcdef"), callback);
        return true;
      }
      case "/chunked" -> {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        response.write(
            false,
            ascii("abc"),
            Callback.from(() -> response.write(true, ascii("def"), callback), callback::failed));
        return true;
      }
      case "/headers" -> {
        response.getHeaders().add("X-B", "1");
        response.getHeaders().add("content-type", "text/plain");
        response.getHeaders().add("X-A", "2");
        response.getHeaders().add("X-B", "3");
        response.getHeaders().add("Cache-Control", "no-store");
        response.write(true, ascii("ok"), callback);
        return true;
      }
      case "/boom" -> throw new IllegalStateException(SECRET);
      case "/log" -> {
        Logger logger = Logger.getLogger("test.app");
        logger.info("hello");
        logger.log(Level.WARNING, "careful {0}", "now");
        logger.severe("broken");
        Logger.getLogger("test.app.quiet").fine("not logged: below INFO");
        response.write(true, ascii("logged"), callback);
        return true;
      }
      case "/hang" -> {
        request.addFailureListener(
            failure -> {
              failures.add(failure);
              callback.failed(failure);
            });
        hanging.add(true);
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  private static ByteBuffer ascii(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
  }

  /** What the app sees of a request, as values that outlive it. */
  static Map<String, Object> snapshot(Request request) {
    Map<String, Object> seen = new LinkedHashMap<>();
    seen.put("method", request.getMethod());
    seen.put("uri", request.getHttpURI().toString());
    seen.put("scheme", request.getHttpURI().getScheme());
    seen.put("secure", request.isSecure());
    seen.put("connectionSecure", request.getConnectionMetaData().isSecure());
    seen.put("remoteAddr", Request.getRemoteAddr(request));
    seen.put("remotePort", Request.getRemotePort(request));
    seen.put("serverName", Request.getServerName(request));
    seen.put("serverPort", Request.getServerPort(request));
    seen.put("localAddr", Request.getLocalAddr(request));
    seen.put("localPort", Request.getLocalPort(request));
    seen.put("length", request.getLength());
    seen.put("httpVersion", request.getConnectionMetaData().getHttpVersion().asString());
    List<String> headers = new ArrayList<>();
    for (HttpField field : request.getHeaders()) {
      headers.add(field.getName() + ": " + field.getValue());
    }
    seen.put("headers", headers);
    Map<String, Object> attributes = new LinkedHashMap<>();
    for (String name : request.getAttributeNameSet()) {
      attributes.put(name, request.getAttribute(name));
    }
    seen.put("attributes", attributes);
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    seen.put("remoteSocket", remote instanceof InetSocketAddress inet ? inet.getPort() : -1);
    return seen;
  }
}
