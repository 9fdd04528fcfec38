package dev.aerun.bench;

import java.nio.ByteBuffer;

/**
 * Finds where HTTP/1.1 responses end on a keep-alive connection, and nothing more: the status code,
 * {@code Content-Length} or chunked framing, and {@code Connection: close}. Header values other
 * than those are skipped unread and bodies are skipped by length, so that the load generator spends
 * its CPU sending requests rather than reading answers. One parser per connection; bytes may arrive
 * split anywhere.
 */
final class ResponseParser {
  /** Header lines are looked at up to this length; a longer line is kept only in part. */
  private static final int LINE_LIMIT = 128;

  private enum State {
    HEAD,
    BODY,
    CHUNK_SIZE,
    CHUNK_DATA,
    CHUNK_END,
    TRAILERS,
    UNTIL_CLOSE
  }

  private final byte[] line = new byte[LINE_LIMIT];
  private int lineLength;
  private boolean firstLine = true;
  private State state = State.HEAD;
  private int status;
  private long contentLength = -1;
  private boolean chunked;
  private boolean close;
  private long remaining;
  private boolean chunkSizeDone;
  private boolean noBody;

  /** The status code of the response parsed last. */
  int status() {
    return status;
  }

  /** Whether the server closes the connection after the response parsed last. */
  boolean closeAfter() {
    return close;
  }

  /**
   * Whether the response being parsed has no framing and ends when the server closes the
   * connection.
   */
  boolean readsUntilClose() {
    return state == State.UNTIL_CLOSE;
  }

  /**
   * Tells the parser the request it waits for the answer of is a {@code HEAD}: the answer has no
   * body whatever its headers say.
   */
  void expectNoBody(boolean noBody) {
    this.noBody = noBody;
  }

  /**
   * Consumes bytes of {@code in} up to the end of one response. Returns {@code true} when a
   * response is complete (its status and {@link #closeAfter()} readable, the parser ready for the
   * next one), leaving {@code in}'s position just after it; {@code false} when it needs more bytes
   * ({@code in} consumed whole).
   *
   * @throws IllegalStateException for bytes that are not an HTTP/1.1 response
   */
  boolean parse(ByteBuffer in) {
    while (in.hasRemaining()) {
      switch (state) {
        case HEAD -> {
          if (headLine(in)) {
            if (endOfHead()) {
              return true;
            }
          }
        }
        case BODY -> {
          int n = (int) Math.min(remaining, in.remaining());
          in.position(in.position() + n);
          remaining -= n;
          if (remaining == 0) {
            return done();
          }
        }
        case CHUNK_SIZE -> {
          if (chunkSizeLine(in)) {
            state = remaining == 0 ? State.TRAILERS : State.CHUNK_DATA;
          }
        }
        case CHUNK_DATA -> {
          int n = (int) Math.min(remaining, in.remaining());
          in.position(in.position() + n);
          remaining -= n;
          if (remaining == 0) {
            state = State.CHUNK_END;
            lineLength = 0;
          }
        }
        case CHUNK_END -> {
          if (skipLine(in)) {
            state = State.CHUNK_SIZE;
            remaining = 0;
            chunkSizeDone = false;
          }
        }
        case TRAILERS -> {
          if (skipLine(in)) {
            if (lineLength == 0) {
              return done();
            }
            lineLength = 0;
          }
        }
        case UNTIL_CLOSE -> in.position(in.limit());
      }
    }
    return false;
  }

  /**
   * Reads up to the end of a head line; {@code true} with the line (without CRLF) in {@link #line}.
   */
  private boolean headLine(ByteBuffer in) {
    while (in.hasRemaining()) {
      byte b = in.get();
      if (b == '\n') {
        if (lineLength > 0 && line[Math.min(lineLength, LINE_LIMIT) - 1] == '\r') {
          lineLength--;
        }
        return true;
      }
      if (lineLength < LINE_LIMIT) {
        line[lineLength] = b;
      }
      lineLength++;
    }
    return false;
  }

  /** Handles one complete head line; {@code true} when it ended a response that has no body. */
  private boolean endOfHead() {
    int length = Math.min(lineLength, LINE_LIMIT);
    lineLength = 0;
    if (firstLine) {
      // HTTP/1.1 200 OK
      if (length < 12 || line[0] != 'H' || line[8] != ' ') {
        throw new IllegalStateException("not an HTTP/1.x status line");
      }
      status = digit(line[9]) * 100 + digit(line[10]) * 10 + digit(line[11]);
      firstLine = false;
      contentLength = -1;
      chunked = false;
      close = line[7] == '0'; // HTTP/1.0 closes unless it says otherwise
      return false;
    }
    if (length > 0) {
      header(length);
      return false;
    }
    // The empty line: the head is complete.
    firstLine = true;
    if (status / 100 == 1) {
      return false; // an interim response; the real one follows
    }
    if (noBody || status == 204 || status == 304) {
      return done();
    }
    if (chunked) {
      state = State.CHUNK_SIZE;
      remaining = 0;
      chunkSizeDone = false;
      return false;
    }
    if (contentLength >= 0) {
      remaining = contentLength;
      if (remaining == 0) {
        return done();
      }
      state = State.BODY;
      return false;
    }
    close = true;
    state = State.UNTIL_CLOSE;
    return false;
  }

  private void header(int length) {
    if (startsWith(length, "content-length:")) {
      long value = 0;
      boolean any = false;
      for (int i = 15; i < length; i++) {
        byte b = line[i];
        if (b >= '0' && b <= '9') {
          value = value * 10 + (b - '0');
          any = true;
        } else if (b != ' ' && b != '\t') {
          throw new IllegalStateException("bad Content-Length");
        }
      }
      if (!any) {
        throw new IllegalStateException("bad Content-Length");
      }
      contentLength = value;
    } else if (startsWith(length, "transfer-encoding:")) {
      chunked = contains(length, 18, "chunked");
    } else if (startsWith(length, "connection:")) {
      if (contains(length, 11, "close")) {
        close = true;
      } else if (contains(length, 11, "keep-alive")) {
        close = false;
      }
    }
  }

  /** The hexadecimal size of a chunk, extensions ignored; {@code true} at the end of the line. */
  private boolean chunkSizeLine(ByteBuffer in) {
    while (in.hasRemaining()) {
      byte b = in.get();
      if (b == '\n') {
        return true;
      }
      if (chunkSizeDone || b == '\r') {
        continue;
      }
      int digit = Character.digit(b, 16);
      if (digit < 0) {
        chunkSizeDone = true; // ";" starts an extension, or trailing whitespace
      } else {
        remaining = remaining * 16 + digit;
      }
    }
    return false;
  }

  /** Skips to the end of a line, counting its bytes other than CR into {@link #lineLength}. */
  private boolean skipLine(ByteBuffer in) {
    while (in.hasRemaining()) {
      byte b = in.get();
      if (b == '\n') {
        return true;
      }
      if (b != '\r') {
        lineLength++;
      }
    }
    return false;
  }

  private boolean done() {
    state = State.HEAD;
    lineLength = 0;
    return true;
  }

  private boolean startsWith(int length, String lowerCaseName) {
    if (length < lowerCaseName.length()) {
      return false;
    }
    for (int i = 0; i < lowerCaseName.length(); i++) {
      if ((line[i] | 0x20) != lowerCaseName.charAt(i) && line[i] != lowerCaseName.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private boolean contains(int length, int from, String lowerCaseWord) {
    outer:
    for (int i = from; i + lowerCaseWord.length() <= length; i++) {
      for (int j = 0; j < lowerCaseWord.length(); j++) {
        if ((line[i + j] | 0x20) != lowerCaseWord.charAt(j)) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static int digit(byte b) {
    if (b < '0' || b > '9') {
      throw new IllegalStateException("bad status code");
    }
    return b - '0';
  }
}
