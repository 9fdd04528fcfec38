package dev.aerun.rpc.runtime;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.aerun.rpc.proto.UPResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;

/**
 * The app's response as HttpConnector mode's client would have received it, buffered whole: the
 * status, the header fields in the order and form Jetty's HTTP/1.1 generator writes them (known
 * names in their standard case, {@code Content-Length} and {@code Connection} after the others),
 * and the body. Not thread-safe: Jetty serializes the writes of one response.
 */
final class CapturedResponse {
  /** The largest array Java allocates: the body cannot grow past it. */
  static final int MAX_BODY = Integer.MAX_VALUE - 8;

  private static final byte[] NO_BYTES = new byte[0];

  private boolean committed;
  private int status;
  private final List<dev.aerun.rpc.proto.HttpHeader> headers = new ArrayList<>();
  private boolean chunked;
  private boolean discardBody;
  private byte[] body = NO_BYTES;
  private int size;

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

    if (!discardBody && !chunked && contentLength > 0) {
      body = new byte[(int) Math.min(contentLength, MAX_BODY)];
    }
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
   * @return false if the body would grow past {@link #MAX_BODY}; nothing is copied then
   */
  boolean append(ByteBuffer content) {
    int length = content == null ? 0 : content.remaining();
    if (length == 0 || discardBody) {
      return true;
    }
    if (length > MAX_BODY - size) {
      return false;
    }
    if (size + length > body.length) {
      long grown = Math.max((long) body.length * 2, (long) size + length);
      byte[] larger = new byte[(int) Math.min(Math.max(grown, 8192), MAX_BODY)];
      System.arraycopy(body, 0, larger, 0, size);
      body = larger;
    }
    content.get(body, size, length);
    size += length;
    return true;
  }

  boolean isCommitted() {
    return committed;
  }

  int status() {
    return status;
  }

  /** The response as an {@code OK} answer. */
  UPResponse.Builder toUpResponse() {
    // The array is never written again: the message may share it instead of copying 32 MiB.
    ByteString bytes =
        size == 0 ? ByteString.EMPTY : UnsafeByteOperations.unsafeWrap(body, 0, size);
    return UPResponse.newBuilder()
        .setError(UPResponse.Error.OK)
        .setHttpStatus(status)
        .addAllHeaders(headers)
        .setBody(bytes)
        .setChunked(chunked);
  }
}
