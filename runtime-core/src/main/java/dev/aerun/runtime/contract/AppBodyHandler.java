package dev.aerun.runtime.contract;

import dev.aerun.runtime.load.BodyTimeoutHandler;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The rules for bodies at the app's door, the same in both modes (see {@link RequestLimits}):
 *
 * <ul>
 *   <li>A request body over the limit gets 413: before the app runs when {@code Content-Length}
 *       says so, otherwise the app's read fails once the streamed bytes pass the limit.
 *   <li>A response body over the limit fails the app's write with a 500 (an error page if nothing
 *       was committed yet; the stream is aborted otherwise); so does an app's {@code
 *       Content-Length} over it.
 *   <li>The app cannot frame its response: a {@code Transfer-Encoding} it sets is dropped, so the
 *       server frames the body itself ({@code Content-Length}, or chunked). Left alone, Jetty sent
 *       an app's {@code Transfer-Encoding: gzip} beside its {@code Content-Length}: a response no
 *       client can frame (RFC 9112 §6.1), and a way to smuggle one response into another through a
 *       proxy. Jetty's generator adds its own framing later, unaffected.
 * </ul>
 *
 * <p>One handler for the three because they run on every request: one response wrapper (with one
 * header wrapper), and a request wrapper only for a body whose length is not known up front (a body
 * with a {@code Content-Length} cannot outgrow it; HTTP/1.1's parser ensures that).
 */
public final class AppBodyHandler extends Handler.Wrapper {
  private final long requestLimit;
  private final long responseLimit;

  /**
   * @param requestLimit the request body limit in bytes, or -1 for none
   * @param responseLimit the response body limit in bytes, or -1 for none
   */
  public AppBodyHandler(long requestLimit, long responseLimit) {
    this.requestLimit = requestLimit;
    this.responseLimit = responseLimit;
  }

  /** The request limit and the response limit in force of {@code limits}. */
  public AppBodyHandler(RequestLimits limits) {
    this(limits.requestBodyLimit(), limits.effectiveResponseBodyLimit());
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    long length = request.getLength();
    if (requestLimit >= 0 && length > requestLimit) {
      Response.writeError(
          request,
          response,
          callback,
          HttpStatus.PAYLOAD_TOO_LARGE_413,
          "Request body is too large: " + length + ">" + requestLimit);
      return true;
    }
    Request appRequest =
        requestLimit >= 0 && length < 0 && BodyTimeoutHandler.mayHaveBody(request)
            ? new LimitedRequest(request, requestLimit)
            : request;
    return super.handle(appRequest, new AppResponse(appRequest, response), callback);
  }

  /** A request body of unknown length whose reads fail with 413 once they pass the limit. */
  private static final class LimitedRequest extends Request.Wrapper {
    private final long limit;
    private long read;

    LimitedRequest(Request wrapped, long limit) {
      super(wrapped);
      this.limit = limit;
    }

    @Override
    public Content.Chunk read() {
      Content.Chunk chunk = super.read();
      if (chunk == null || chunk.getFailure() != null) {
        return chunk;
      }
      ByteBuffer content = chunk.getByteBuffer();
      if (content != null && content.hasRemaining()) {
        read += content.remaining();
        if (read > limit) {
          chunk.release();
          getWrapped()
              .fail(
                  new HttpException.RuntimeException(
                      HttpStatus.PAYLOAD_TOO_LARGE_413,
                      "Request body is too large: " + read + ">" + limit));
          return null;
        }
      }
      return chunk;
    }
  }

  /**
   * The app's response: its headers checked as they are set, its body bytes counted. Its limit is
   * the handler's ({@link #responseLimit}), not a copy: one field less per request.
   */
  private final class AppResponse extends Response.Wrapper {
    private final HttpFields.Mutable headers;
    private long written;
    private HttpException.RuntimeException tooLarge;

    AppResponse(Request request, Response wrapped) {
      super(request, wrapped);
      this.headers = new AppHeaders(wrapped.getHeaders(), responseLimit);
    }

    @Override
    public HttpFields.Mutable getHeaders() {
      return headers;
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback callback) {
      if (tooLarge != null) {
        callback.failed(tooLarge);
        return;
      }
      if (responseLimit >= 0 && content != null && content.hasRemaining()) {
        if (written + content.remaining() > responseLimit) {
          tooLarge =
              new HttpException.RuntimeException(
                  HttpStatus.INTERNAL_SERVER_ERROR_500,
                  "Response body is too large: "
                      + (written + content.remaining())
                      + ">"
                      + responseLimit);
          callback.failed(tooLarge);
          return;
        }
        written += content.remaining();
      }
      super.write(last, content, callback);
    }
  }

  /**
   * The app's response headers: {@code Transfer-Encoding} never gets in, a {@code Content-Length}
   * over the limit fails. {@link #put(HttpField)} and {@link #add(HttpField)} (what setting a
   * header comes down to) go straight to the response's own fields; iterators keep the checks
   * through the hooks.
   */
  private static final class AppHeaders extends HttpFields.Mutable.Wrapper {
    private final long limit;

    AppHeaders(HttpFields.Mutable fields, long limit) {
      super(fields);
      this.limit = limit;
    }

    @Override
    public HttpFields.Mutable put(HttpField field) {
      if (admit(field) != null) {
        getWrapped().put(field);
      }
      return this;
    }

    @Override
    public HttpField onAddField(HttpField field) {
      return admit(field);
    }

    @Override
    public HttpField onReplaceField(HttpField oldField, HttpField newField) {
      return admit(newField) == null ? oldField : newField;
    }

    /** The field as it may be set, or null for one the app may not set. */
    private HttpField admit(HttpField field) {
      HttpHeader header = field.getHeader();
      if (header == HttpHeader.TRANSFER_ENCODING) {
        return null;
      }
      if (header == HttpHeader.CONTENT_LENGTH && limit >= 0 && field.getLongValue() > limit) {
        throw new HttpException.RuntimeException(
            HttpStatus.INTERNAL_SERVER_ERROR_500,
            "Response body is too large: " + field.getLongValue() + ">" + limit);
      }
      return field;
    }
  }
}
