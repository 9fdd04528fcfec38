package dev.aerun.rpc.front;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.load.DeadlineHandler;
import io.grpc.Status;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * Writes what the runtime answered, or why it did not, as the HTTP response. Errors use the
 * server's error page ({@link Response#writeError}), which shows the status and its reason only.
 */
final class UpResponses {
  private static final Logger log = Logger.getLogger(FrontHandler.class.getName());

  private UpResponses() {}

  /**
   * @param closeConnection whether the response must close the connection: part of the request's
   *     body was left unread
   */
  static void write(
      UPResponse up,
      Request request,
      Response response,
      Callback callback,
      boolean closeConnection) {
    switch (up.getError()) {
      case OK -> writeAppResponse(up, request, response, callback, closeConnection);
      case OVERLOADED -> {
        response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        Response.writeError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503);
      }
      case UNKNOWN_APP -> {
        log.warning(() -> "runtime serves no app " + describe(up));
        Response.writeError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503);
      }
      case DEADLINE_EXCEEDED -> {
        writeDeadlineExceeded(request, response, callback);
      }
      case RESPONSE_TOO_LARGE -> {
        log.warning(() -> "response over the size limit: " + request.getHttpURI().getPath());
        Response.writeError(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500);
      }
      case BAD_REQUEST -> {
        int status = up.getHttpStatus();
        Response.writeError(
            request,
            response,
            callback,
            status >= 400 && status < 500 ? status : HttpStatus.BAD_REQUEST_400);
      }
      default -> {
        // APP_FAILURE, UNEXPECTED_ERROR, or an error this front end does not know yet.
        log.warning(() -> "runtime failed the request: " + describe(up));
        Response.writeError(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500);
      }
    }
  }

  /**
   * The app's response: its status and headers in the order the runtime gave them, the runtime's
   * {@code Date} in place of this server's own (kept when the runtime sends none), and the body
   * framed as HttpConnector mode's Jetty would have framed it: with the runtime's {@code
   * Content-Length}, or, when the runtime says the app's response was {@code chunked}, without a
   * length (a non-last write, then the last), so Jetty streams it.
   */
  private static void writeAppResponse(
      UPResponse up,
      Request request,
      Response response,
      Callback callback,
      boolean closeConnection) {
    int status = up.getHttpStatus();
    // Any three-digit status goes out as the app set it, as HttpConnector mode's Jetty sends it
    // (RFC 9110 has clients treat one they do not know as 5xx); anything else is no status.
    if (status < 100 || status > 999) {
      log.warning(() -> "runtime answered an invalid status " + status);
      Response.writeError(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500);
      return;
    }
    ByteString body = up.getBody();
    boolean head = HttpMethod.HEAD.is(request.getMethod());
    // HEAD and 304 keep the length of the body they stand for; anything else must match the body.
    boolean lengthWithoutBody = head || status == HttpStatus.NOT_MODIFIED_304;
    response.setStatus(status);
    HttpFields.Mutable headers = response.getHeaders();
    for (dev.aerun.rpc.proto.HttpHeader header : up.getHeadersList()) {
      String name = header.getName();
      HttpHeader known = HttpHeader.CACHE.get(name);
      if (known == HttpHeader.TRANSFER_ENCODING) {
        continue; // this server's own framing
      }
      if (known == HttpHeader.DATE) {
        headers.put(HttpHeader.DATE, header.getValue()); // replaces this server's own
        continue;
      }
      if (known == HttpHeader.CONTENT_LENGTH
          && (up.getChunked() || !lengthWithoutBody && !matches(header.getValue(), body))) {
        log.fine(() -> "dropped a Content-Length that does not match the body: " + header);
        continue; // Jetty sets the right one from the body written
      }
      headers.add(name, header.getValue());
    }
    if (closeConnection) {
      headers.put(HttpHeader.CONNECTION, "close");
    }
    // The body may be many blocks (see BodyBuffer): written one after the other, never copied
    // into one.
    List<ByteBuffer> blocks = head || body.isEmpty() ? List.of() : body.asReadOnlyByteBufferList();
    if (!up.getChunked() && blocks.size() > 1 && !headers.contains(HttpHeader.CONTENT_LENGTH)) {
      // One write would have let Jetty set the length; several would make it stream.
      headers.put(HttpHeader.CONTENT_LENGTH, body.size());
    }
    new BlockWriter(response, blocks, up.getChunked(), callback).iterate();
  }

  /**
   * Writes the blocks of a body in order; the last write ends the response, unless the response is
   * chunked (then an empty last write follows, so that Jetty streams it without a length).
   */
  private static final class BlockWriter extends IteratingCallback {
    private final Response response;
    private final List<ByteBuffer> blocks;
    private final boolean chunked;
    private final Callback callback;
    private int next;
    private boolean lastWritten;

    BlockWriter(Response response, List<ByteBuffer> blocks, boolean chunked, Callback callback) {
      this.response = response;
      this.blocks = blocks;
      this.chunked = chunked;
      this.callback = callback;
    }

    @Override
    protected Action process() {
      if (lastWritten) {
        return Action.SUCCEEDED;
      }
      if (next < blocks.size()) {
        ByteBuffer block = blocks.get(next++);
        boolean last = !chunked && next == blocks.size();
        lastWritten = last;
        response.write(last, block, this);
        return Action.SCHEDULED;
      }
      lastWritten = true;
      response.write(true, null, this);
      return Action.SCHEDULED;
    }

    @Override
    protected void onCompleteSuccess() {
      callback.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable failure) {
      callback.failed(failure);
    }
  }

  private static boolean matches(String contentLength, ByteString body) {
    try {
      return Long.parseLong(contentLength.trim()) == body.size();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** The call itself failed: the runtime is unreachable, too slow, or broke. */
  static void writeFailure(
      Throwable failure, Request request, Response response, Callback callback) {
    Status status = Status.fromThrowable(failure);
    switch (status.getCode()) {
      case UNAVAILABLE -> {
        // Expected while the runtime is down or restarting: the cause's message says enough.
        log.warning(() -> "runtime unreachable: " + describe(status));
        Response.writeError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503);
      }
      case DEADLINE_EXCEEDED -> {
        writeDeadlineExceeded(request, response, callback);
      }
      case CANCELLED -> callback.failed(failure); // the client went away first
      default -> {
        log.log(Level.WARNING, "runtime call failed: " + describe(status), status.getCause());
        Response.writeError(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500);
      }
    }
  }

  /**
   * The request ran past its deadline: logged, and answered as HttpConnector mode's {@link
   * DeadlineHandler} answers, {@code 504} with the connection closed.
   */
  private static void writeDeadlineExceeded(Request request, Response response, Callback callback) {
    long timeoutMillis =
        request.getAttribute(RequestAttributes.TIMEOUT_MILLIS) instanceof Long millis ? millis : 0;
    log.warning(
        DeadlineHandler.exceeded(
            request.getMethod(), request.getHttpURI().getPath(), timeoutMillis, ""));
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    Response.writeError(request, response, callback, HttpStatus.GATEWAY_TIMEOUT_504);
  }

  /** The status without a stack trace: it was made here and would only show gRPC's frames. */
  private static String describe(Status status) {
    Throwable cause = status.getCause();
    return status.getCode()
        + (status.getDescription() == null ? "" : ": " + status.getDescription())
        + (cause == null || cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")");
  }

  private static String describe(UPResponse up) {
    return up.getError()
        + (up.getErrorMessage().isEmpty() ? "" : ": " + up.getErrorMessage())
        + " (status "
        + up.getHttpStatus()
        + ")";
  }
}
