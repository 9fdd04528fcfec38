package dev.aerun.runtime.apis;

import dev.aerun.runtime.contract.TraceContext;
import java.nio.charset.StandardCharsets;

/**
 * The remote-API envelope an API host speaks, in protobuf's wire format, written by hand so that no
 * protobuf library reaches the runtime's class path.
 *
 * <p>A request is {@code Request {service_name = 2, method = 3, request = 4 (the service's own
 * message), request_id = 5, trace_context = 6}}; the trace context is {@code {trace_id = 1 (bytes
 * of {hi = 1, lo = 2}, both fixed64), span_id = 2 (fixed64), trace_mask = 3 (varint, 1 =
 * sampled)}}. A response is {@code Response {response = 1, application_error = 3 {code = 1, detail
 * = 2}, rpc_error = 5 {code = 1, detail = 2}}}; its other fields (a serialized exception, 2 and 4)
 * are skipped.
 */
final class RemoteApiEnvelope {
  private RemoteApiEnvelope() {}

  /** {@code RpcError.ErrorCode} values the runtime maps to the SDK's exceptions. */
  static final int CALL_NOT_FOUND = 1;

  static final int PARSE_ERROR = 2;
  static final int SECURITY_VIOLATION = 3;
  static final int OVER_QUOTA = 4;
  static final int REQUEST_TOO_LARGE = 5;
  static final int CAPABILITY_DISABLED = 6;
  static final int FEATURE_DISABLED = 7;
  static final int BAD_REQUEST = 8;
  static final int RESPONSE_TOO_LARGE = 9;
  static final int CANCELLED = 10;
  static final int REPLAY_ERROR = 11;
  static final int DEADLINE_EXCEEDED = 12;

  /**
   * What an API host answered: the service's response bytes, or an application error of the
   * service, or an RPC error of the host.
   *
   * @param response the service's response message (empty when absent)
   * @param applicationError whether {@code application_error} was set
   * @param code the application error's code, or the RPC error's code, else 0
   * @param detail the error's detail, else ""
   * @param rpcError whether {@code rpc_error} was set
   */
  record Reply(
      byte[] response, boolean applicationError, boolean rpcError, int code, String detail) {}

  /** Encodes one request. {@code requestId} and {@code trace} may be null. */
  static byte[] request(
      String service, String method, byte[] payload, String requestId, TraceContext trace) {
    byte[] serviceBytes = service.getBytes(StandardCharsets.UTF_8);
    byte[] methodBytes = method.getBytes(StandardCharsets.UTF_8);
    byte[] idBytes = requestId == null ? null : requestId.getBytes(StandardCharsets.UTF_8);
    byte[] traceBytes = trace == null ? null : traceContext(trace);
    int size =
        field(serviceBytes.length)
            + field(methodBytes.length)
            + field(payload.length)
            + (idBytes == null ? 0 : field(idBytes.length))
            + (traceBytes == null ? 0 : field(traceBytes.length));
    Writer out = new Writer(size);
    out.bytes(2, serviceBytes);
    out.bytes(3, methodBytes);
    out.bytes(4, payload);
    if (idBytes != null) {
      out.bytes(5, idBytes);
    }
    if (traceBytes != null) {
      out.bytes(6, traceBytes);
    }
    return out.done();
  }

  /** {@code TraceContextProto} of a request's trace (an invalid id gives an empty trace id). */
  static byte[] traceContext(TraceContext trace) {
    String id = trace.traceId();
    long hi = 0;
    long lo = 0;
    boolean hasId = id != null && id.length() == 32;
    if (hasId) {
      try {
        hi = Long.parseUnsignedLong(id.substring(0, 16), 16);
        lo = Long.parseUnsignedLong(id.substring(16), 16);
      } catch (NumberFormatException e) {
        hasId = false;
      }
    }
    long span = 0;
    boolean hasSpan = false;
    if (trace.spanId() != null && !trace.spanId().isEmpty()) {
      try {
        span = Long.parseUnsignedLong(trace.spanId(), 16);
        hasSpan = true;
      } catch (NumberFormatException e) {
        // no span then
      }
    }
    int idSize = hasId ? 18 : 0; // two fixed64 fields
    int size = (hasId ? field(idSize) : 0) + (hasSpan ? 9 : 0) + 2;
    Writer out = new Writer(size);
    if (hasId) {
      out.key(1, 2);
      out.varint(idSize);
      out.fixed64(1, hi);
      out.fixed64(2, lo);
    }
    if (hasSpan) {
      out.fixed64(2, span);
    }
    out.key(3, 0);
    out.varint(trace.sampled() ? 1 : 0);
    return out.done();
  }

  /**
   * Decodes a response of {@code length} bytes.
   *
   * @throws IllegalArgumentException when the bytes are not a well-formed envelope
   */
  static Reply reply(byte[] bytes, int length) {
    Reader in = new Reader(bytes, 0, length);
    byte[] response = null;
    boolean applicationError = false;
    boolean rpcError = false;
    int code = 0;
    String detail = "";
    while (in.more()) {
      long key = in.varint();
      int field = (int) (key >>> 3);
      int wireType = (int) (key & 7);
      if (wireType == 2 && field == 1) {
        response = in.bytes();
      } else if (wireType == 2 && (field == 3 || field == 5)) {
        int end = in.lengthEnd();
        Reader error = new Reader(bytes, in.at, end);
        int errorCode = 0;
        String errorDetail = "";
        while (error.more()) {
          long errorKey = error.varint();
          int errorField = (int) (errorKey >>> 3);
          int errorWire = (int) (errorKey & 7);
          if (errorField == 1 && errorWire == 0) {
            errorCode = (int) error.varint();
          } else if (errorField == 2 && errorWire == 2) {
            errorDetail = new String(error.bytes(), StandardCharsets.UTF_8);
          } else {
            error.skip(errorWire);
          }
        }
        in.at = end;
        if (field == 3) {
          applicationError = true;
          code = errorCode;
          detail = errorDetail;
        } else if (!applicationError) {
          rpcError = true;
          code = errorCode;
          detail = errorDetail;
        }
      } else {
        in.skip(wireType);
      }
    }
    return new Reply(
        response == null ? new byte[0] : response, applicationError, rpcError, code, detail);
  }

  /** The size of a length-delimited field with a one-byte key. */
  private static int field(int length) {
    return 1 + varintSize(length) + length;
  }

  private static int varintSize(long value) {
    int size = 1;
    while ((value & ~0x7fL) != 0) {
      value >>>= 7;
      size++;
    }
    return size;
  }

  /** Writes into an array of the size computed beforehand. */
  private static final class Writer {
    private final byte[] buffer;
    private int at;

    Writer(int size) {
      buffer = new byte[size];
    }

    void key(int field, int wireType) {
      varint((field << 3) | wireType);
    }

    void varint(long value) {
      while ((value & ~0x7fL) != 0) {
        buffer[at++] = (byte) ((value & 0x7f) | 0x80);
        value >>>= 7;
      }
      buffer[at++] = (byte) value;
    }

    void bytes(int field, byte[] value) {
      key(field, 2);
      varint(value.length);
      System.arraycopy(value, 0, buffer, at, value.length);
      at += value.length;
    }

    void fixed64(int field, long value) {
      key(field, 1);
      for (int i = 0; i < 8; i++) {
        buffer[at++] = (byte) (value >>> (8 * i));
      }
    }

    byte[] done() {
      if (at != buffer.length) {
        throw new IllegalStateException("envelope size " + at + " != " + buffer.length);
      }
      return buffer;
    }
  }

  /** Reads fields from {@code [at, end)}, failing on anything truncated. */
  private static final class Reader {
    private final byte[] buffer;
    private final int end;
    private int at;

    Reader(byte[] buffer, int at, int end) {
      this.buffer = buffer;
      this.at = at;
      this.end = end;
    }

    boolean more() {
      return at < end;
    }

    long varint() {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= end) {
          throw new IllegalArgumentException("truncated varint");
        }
        int b = buffer[at++] & 0xff;
        value |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
      throw new IllegalArgumentException("varint too long");
    }

    int lengthEnd() {
      long length = varint();
      if (length < 0 || length > end - at) {
        throw new IllegalArgumentException("length " + length + " past the end");
      }
      return at + (int) length;
    }

    byte[] bytes() {
      int stop = lengthEnd();
      byte[] value = new byte[stop - at];
      System.arraycopy(buffer, at, value, 0, value.length);
      at = stop;
      return value;
    }

    void skip(int wireType) {
      switch (wireType) {
        case 0 -> varint();
        case 1 -> advance(8);
        case 2 -> at = lengthEnd();
        case 5 -> advance(4);
        default -> throw new IllegalArgumentException("unsupported wire type " + wireType);
      }
    }

    private void advance(int count) {
      if (count > end - at) {
        throw new IllegalArgumentException("truncated field");
      }
      at += count;
    }
  }
}
