package dev.aerun.rpc.runtime;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.body.BodyBuffer;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.load.BodyMemory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The app's response as HttpConnector mode's client would have received it, buffered whole: the
 * status, the header fields in the order and form Jetty's HTTP/1.1 generator writes them (known
 * names in their standard case, {@code Content-Length} and {@code Connection} after the others),
 * and the body. Not thread-safe: Jetty serializes the writes of one response.
 */
final class CapturedResponse {
  /** The largest array Java allocates: the body cannot grow past it. */
  static final int MAX_BODY = Integer.MAX_VALUE - 8;

  private boolean committed;
  private int status;
  private final List<dev.aerun.rpc.proto.HttpHeader> headers = new ArrayList<>();
  private boolean chunked;
  private boolean discardBody;
  private long contentLength = -1;
  private final BodyBuffer body;
  private boolean outOfMemory;

  /**
   * @param memory the budget the buffered body counts against
   */
  CapturedResponse(BodyMemory memory) {
    this.body = new BodyBuffer(memory.responses());
  }

  /**
   * Records the committed response head.
   *
   * @param request the request, whose method and version decide the framing
   * @param response the response metadata Jetty commits: status, fields, and the length if known
   */
  void commit(MetaData.Request request, MetaData.Response response) {
    committed = true;
    status = response.getStatus();
    long contentLength = response.getContentLength();
    boolean http11 = request.getHttpVersion() == HttpVersion.HTTP_1_1;
    boolean noContentStatus =
        HttpStatus.isInformational(status)
            || status == HttpStatus.NO_CONTENT_204
            || status == HttpStatus.NOT_MODIFIED_304;
    discardBody = noContentStatus || HttpMethod.HEAD.is(request.getMethod());

    // The generator takes Content-Length, Transfer-Encoding and Connection out of the fields and
    // writes the framing it decides after the others.
    boolean chunkedHint = response.getTrailersSupplier() != null;
    boolean contentLengthField = false;
    List<HttpField> connection = null;
    HttpFields fields = response.getHttpFields();
    if (fields != null) {
      for (HttpField field : fields) {
        HttpHeader header = field.getHeader();
        if (header == HttpHeader.CONTENT_LENGTH) {
          contentLengthField = true;
          if (contentLength < 0) {
            contentLength = field.getLongValue();
          }
        } else if (header == HttpHeader.TRANSFER_ENCODING) {
          chunkedHint |= http11 && field.contains(HttpHeaderValue.CHUNKED.asString());
        } else if (header == HttpHeader.CONNECTION) {
          if (connection == null) {
            connection = new ArrayList<>(1);
          }
          connection.add(field);
        } else {
          add(field);
        }
      }
    }

    if (noContentStatus) {
      // No body, so no framing; a 304 keeps the length of the representation it stands for.
      if (status == HttpStatus.NOT_MODIFIED_304 && contentLengthField && contentLength >= 0) {
        addContentLength(contentLength);
      }
    } else if (chunkedHint || contentLength < 0) {
      // Length unknown at commit: Jetty streams (chunked, or until close for HTTP/1.0).
      chunked = true;
    } else {
      addContentLength(contentLength);
    }
    if (connection != null) {
      connection.forEach(this::add);
    }

    // Only a hint to size the blocks: nothing is allocated before the bytes arrive.
    this.contentLength = chunked ? -1 : contentLength;
  }

  private void add(HttpField field) {
    HttpHeader header = field.getHeader();
    headers.add(
        dev.aerun.rpc.proto.HttpHeader.newBuilder()
            .setName(header != null ? header.asString() : field.getName())
            .setValue(field.getValue() == null ? "" : field.getValue())
            .build());
  }

  private void addContentLength(long length) {
    headers.add(
        dev.aerun.rpc.proto.HttpHeader.newBuilder()
            .setName(HttpHeader.CONTENT_LENGTH.asString())
            .setValue(Long.toString(length))
            .build());
  }

  /**
   * Copies {@code content} (which Jetty may reuse once the write completes) into the body.
   *
   * @return false if the body would grow past {@link #MAX_BODY} or past the memory budget (then
   *     {@link #outOfMemory()} until {@link #awaitRoom} got it); what did not fit is not copied,
   *     and {@code content} is left at its first byte not copied
   */
  boolean append(ByteBuffer content) {
    int length = content == null ? 0 : content.remaining();
    if (length == 0 || discardBody) {
      return true;
    }
    if (length > MAX_BODY - body.size()) {
      return false;
    }
    long expected = contentLength < 0 ? -1 : contentLength - body.size();
    if (!body.append(content, length, expected)) {
      outOfMemory = true;
      return false;
    }
    return true;
  }

  /**
   * After {@link #append} ran out of memory: waits, never blocking, for room (see {@link
   * BodyBuffer#awaitRoom}); then runs {@code granted}, or {@code refused} if none came in time,
   * after which {@link #outOfMemory()} stays true.
   */
  void awaitRoom(Executor executor, Scheduler scheduler, Runnable granted, Runnable refused) {
    body.awaitRoom(
        executor,
        scheduler,
        () -> {
          outOfMemory = false;
          granted.run();
        },
        refused);
  }

  /** The last byte was captured: the body needs no more room. */
  void finish() {
    body.finish();
  }

  /** Whether the memory budget refused the body: the answer is 503, not the app's. */
  boolean outOfMemory() {
    return outOfMemory;
  }

  /** Gives the body's memory back to the budget once the answer left (see {@link BodyBuffer}). */
  void release() {
    body.release();
  }

  boolean isCommitted() {
    return committed;
  }

  int status() {
    return status;
  }

  /** The response as an {@code OK} answer. */
  UPResponse.Builder toUpResponse() {
    // The blocks are never written again: the message shares them instead of copying 32 MiB.
    ByteString bytes = body.toByteString();
    return UPResponse.newBuilder()
        .setError(UPResponse.Error.OK)
        .setHttpStatus(status)
        .addAllHeaders(headers)
        .setBody(bytes)
        .setChunked(chunked);
  }
}
