package dev.aerun.runtime.contract;

import dev.aerun.runtime.load.BodyTimeoutHandler;
import dev.aerun.runtime.server.FieldsBelow;
import java.nio.ByteBuffer;
import java.util.ListIterator;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
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
 * <p>One handler for the three because they run on every request: one response wrapper (which is
 * also its headers), and a request wrapper only for a body whose length is not known up front (a
 * body with a {@code Content-Length} cannot outgrow it; HTTP/1.1's parser ensures that).
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
   * The app's response, which is also its headers (one object per request, not two): header fields
   * are checked as they are set ({@code Transfer-Encoding} never gets in, a {@code Content-Length}
   * over the limit fails), body bytes are counted. Reads go straight to the response's own fields;
   * changes made through an iterator keep the checks. Its limit is the handler's ({@link
   * #responseLimit}), not a copy: one field less per request.
   */
  private final class AppResponse extends Response.Wrapper implements HttpFields.Mutable {
    private long written;
    private HttpException.RuntimeException tooLarge;

    AppResponse(Request request, Response wrapped) {
      super(request, wrapped);
    }

    /** The response's own fields (not a copy: the wrapped response keeps one set). */
    private HttpFields.Mutable fields() {
      return getWrapped().getHeaders();
    }

    @Override
    public HttpFields.Mutable getHeaders() {
      return this;
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

    // The headers: what setting a header comes down to is checked, the rest delegated.

    @Override
    public int size() {
      return fields().size();
    }

    @Override
    public Stream<HttpField> stream() {
      return fields().stream();
    }

    @Override
    public HttpFields.Mutable add(HttpField field) {
      if (field != null && admit(field) != null) {
        fields().add(field);
      }
      return this;
    }

    @Override
    public HttpFields.Mutable put(HttpField field) {
      if (admit(field) != null) {
        fields().put(field);
      }
      return this;
    }

    @Override
    public HttpFields.Mutable clear() {
      fields().clear();
      return this;
    }

    @Override
    public ListIterator<HttpField> listIterator(int index) {
      return new CheckedFields(index);
    }

    /** The field as it may be set, or null for one the app may not set. */
    private HttpField admit(HttpField field) {
      HttpHeader header = field.getHeader();
      if (header == HttpHeader.TRANSFER_ENCODING) {
        return null;
      }
      if (header == HttpHeader.CONTENT_LENGTH
          && responseLimit >= 0
          && field.getLongValue() > responseLimit) {
        throw new HttpException.RuntimeException(
            HttpStatus.INTERNAL_SERVER_ERROR_500,
            "Response body is too large: " + field.getLongValue() + ">" + responseLimit);
      }
      return field;
    }

    /**
     * The response's fields walked by the app, or by the servlet layer's own header wrapper (whose
     * {@code put} walks the fields below it on every {@code setContentType}): read by index until
     * something changes, then through the response's own iterator, so that its checks apply. A
     * field added or set is {@linkplain #admit admitted} first; a refused replacement leaves the
     * old field in place. Most walks only read: they cost this object and no iterator below it.
     */
    private final class CheckedFields implements ListIterator<HttpField> {
      /** The response's fields, and the fields below their wrappers, read once for the walk. */
      private final HttpFields.Mutable own = fields();

      private final HttpFields below = FieldsBelow.of(own);

      /** The index of the next field to read, while nothing changed. */
      private int cursor;

      /** The field last returned, while it may still be removed or replaced; and its index. */
      private HttpField last;

      private int lastIndex;

      /** The response's own iterator, once something changed; null until then. */
      private ListIterator<HttpField> changing;

      CheckedFields(int index) {
        if (index < 0 || index > below.size()) {
          throw new IndexOutOfBoundsException(index);
        }
        this.cursor = index;
      }

      @Override
      public boolean hasNext() {
        return changing != null ? changing.hasNext() : cursor < below.size();
      }

      @Override
      public HttpField next() {
        if (changing != null) {
          return last = changing.next();
        }
        if (cursor >= below.size()) {
          throw new NoSuchElementException();
        }
        lastIndex = cursor;
        return last = below.getField(cursor++);
      }

      @Override
      public boolean hasPrevious() {
        return changing != null ? changing.hasPrevious() : cursor > 0;
      }

      @Override
      public HttpField previous() {
        if (changing != null) {
          return last = changing.previous();
        }
        if (cursor <= 0) {
          throw new NoSuchElementException();
        }
        lastIndex = --cursor;
        return last = below.getField(cursor);
      }

      @Override
      public int nextIndex() {
        return changing != null ? changing.nextIndex() : cursor;
      }

      @Override
      public int previousIndex() {
        return changing != null ? changing.previousIndex() : cursor - 1;
      }

      /**
       * From the first change on, the response's own iterator, having just returned the field last
       * read and in the same direction: a removal the fields below refuse (Jetty's Date, anything
       * once committed) then leaves the cursor where this walk had it.
       */
      private ListIterator<HttpField> changingLast() {
        if (changing == null) {
          if (cursor == lastIndex) { // read by previous()
            changing = own.listIterator(lastIndex + 1);
            changing.previous();
          } else {
            changing = own.listIterator(lastIndex);
            changing.next();
          }
        }
        return changing;
      }

      @Override
      public void remove() {
        if (last != null) {
          last = null;
          changingLast().remove();
        }
      }

      @Override
      public void set(HttpField field) {
        if (last == null) {
          return;
        }
        if (field == null) {
          remove();
          return;
        }
        if (field != last && admit(field) != null) {
          last = null;
          changingLast().set(field);
        }
      }

      @Override
      public void add(HttpField field) {
        if (field != null && admit(field) != null) {
          last = null;
          if (changing == null) {
            changing = own.listIterator(cursor);
          }
          changing.add(field);
        }
      }
    }
  }
}
