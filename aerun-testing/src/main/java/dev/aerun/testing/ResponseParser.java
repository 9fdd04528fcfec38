package dev.aerun.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Finds where HTTP/1.1 responses end on a connection: the status code, {@code Content-Length} or
 * chunked framing, and {@code Connection: close}. One parser per connection; bytes may arrive split
 * anywhere, and several responses may come in one piece.
 *
 * <p>Without a {@link Listener} it reads nothing more: header values other than those are skipped
 * unread and bodies are skipped by length, so that a load generator spends its CPU sending requests
 * rather than reading answers. With one, it hands over every head line whole and every body byte
 * (after chunk decoding), which is what {@link RawHttp} builds its responses from.
 */
public final class ResponseParser {
  /** Without a listener, head lines are looked at up to this length; the rest is skipped. */
  private static final int LINE_LIMIT = 128;

  /**
   * What a response is made of, in the order it arrives. Lines are ISO-8859-1 text (every byte one
   * char) without their CRLF.
   */
  public interface Listener {
    /** A status line: of an interim (1xx) response, or of the final one. */
    void statusLine(String line);

    /** A header line of the response whose status line came last. */
    void header(String line);

    /** The end of a head; {@code interim} for a 1xx answer that another one follows. */
    void endOfHead(boolean interim);

    /** Body bytes, chunk framing removed; valid during the call only. */
    void body(ByteBuffer bytes);

    /** A trailer line after the last chunk. */
    void trailer(String line);
  }

  private enum State {
    HEAD,
    BODY,
    CHUNK_SIZE,
    CHUNK_DATA,
    CHUNK_END,
    TRAILERS,
    UNTIL_CLOSE
  }

  private final Listener listener;
  private byte[] line = new byte[LINE_LIMIT];
  private int lineLength;
  private boolean firstLine = true;
  private State state = State.HEAD;
  private int status;
  private long contentLength = -1;
  private boolean chunked;
  private boolean close;
  private long remaining;
  private boolean chunkSizeDigits;
  private boolean chunkSizeDone;
  private boolean noBody;

  /** A parser that only finds where responses end. */
  public ResponseParser() {
    this(null);
  }

  /** A parser that tells {@code listener} every part of each response. */
  public ResponseParser(Listener listener) {
    this.listener = listener;
  }

  /** The status code of the response parsed last. */
  public int status() {
    return status;
  }

  /** Whether the server closes the connection after the response parsed last. */
  public boolean closeAfter() {
    return close;
  }

  /**
   * Whether the response being parsed has no framing and ends when the server closes the
   * connection.
   */
  public boolean readsUntilClose() {
    return state == State.UNTIL_CLOSE;
  }

  /** Whether the parser is between responses: no byte of the next one read yet. */
  public boolean atResponseStart() {
    return state == State.HEAD && firstLine && lineLength == 0;
  }

  /**
   * Tells the parser the request it waits for the answer of is a {@code HEAD}: the answer has no
   * body whatever its headers say.
   */
  public void expectNoBody(boolean noBody) {
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
  public boolean parse(ByteBuffer in) {
    while (in.hasRemaining()) {
      switch (state) {
        case HEAD -> {
          if (headLine(in)) {
            if (endOfHeadLine()) {
              return true;
            }
          }
        }
        case BODY -> {
          skipBody(in);
          if (remaining == 0) {
            return done();
          }
        }
        case CHUNK_SIZE -> {
          if (chunkSizeLine(in)) {
            if (!chunkSizeDigits) {
              throw new IllegalStateException("bad chunk size");
            }
            state = remaining == 0 ? State.TRAILERS : State.CHUNK_DATA;
            lineLength = 0;
          }
        }
        case CHUNK_DATA -> {
          skipBody(in);
          if (remaining == 0) {
            state = State.CHUNK_END;
            lineLength = 0;
          }
        }
        case CHUNK_END -> {
          if (headLine(in)) {
            if (lineLength != 0) {
              throw new IllegalStateException("chunk not followed by CRLF");
            }
            startChunk();
          }
        }
        case TRAILERS -> {
          if (headLine(in)) {
            if (lineLength == 0) {
              return done();
            }
            if (listener != null) {
              listener.trailer(lineText());
            }
            lineLength = 0;
          }
        }
        case UNTIL_CLOSE -> {
          if (listener != null) {
            listener.body(in.slice());
          }
          in.position(in.limit());
        }
      }
    }
    return false;
  }

  /** Passes over up to {@link #remaining} body bytes of {@code in}, to the listener if any. */
  private void skipBody(ByteBuffer in) {
    int n = (int) Math.min(remaining, in.remaining());
    if (listener != null) {
      listener.body(in.slice(in.position(), n));
    }
    in.position(in.position() + n);
    remaining -= n;
  }

  /**
   * Reads up to the end of a line; {@code true} with the line (without CRLF) in {@link #line},
   * {@link #lineLength} bytes long (only the first {@link #LINE_LIMIT} of them kept without a
   * listener).
   */
  private boolean headLine(ByteBuffer in) {
    while (in.hasRemaining()) {
      byte b = in.get();
      if (b == '\n') {
        if (lineLength > 0 && line[Math.min(lineLength, line.length) - 1] == '\r') {
          lineLength--;
        }
        return true;
      }
      if (lineLength == line.length && listener != null) {
        line = Arrays.copyOf(line, line.length * 2);
      }
      if (lineLength < line.length) {
        line[lineLength] = b;
      }
      lineLength++;
    }
    return false;
  }

  /** Handles one complete head line; {@code true} when it ended a response that has no body. */
  private boolean endOfHeadLine() {
    int length = Math.min(lineLength, line.length);
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
      if (listener != null) {
        listener.statusLine(lineText());
      }
      lineLength = 0;
      return false;
    }
    lineLength = 0;
    if (length > 0) {
      header(length);
      if (listener != null) {
        listener.header(new String(line, 0, length, StandardCharsets.ISO_8859_1));
      }
      return false;
    }
    // The empty line: the head is complete.
    firstLine = true;
    // An interim answer; the real one follows (101 switches protocols: what follows is not HTTP).
    boolean interim = status / 100 == 1 && status != 101;
    if (listener != null) {
      listener.endOfHead(interim);
    }
    if (interim) {
      return false;
    }
    if (noBody || status == 204 || status == 304) {
      return done();
    }
    if (chunked) {
      startChunk();
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

  private void startChunk() {
    state = State.CHUNK_SIZE;
    remaining = 0;
    chunkSizeDigits = false;
    chunkSizeDone = false;
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

  /**
   * The hexadecimal size of a chunk, extensions ignored; {@code true} at the end of the line.
   *
   * @throws IllegalStateException for a size that is not hexadecimal
   */
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
      if (digit >= 0) {
        remaining = remaining * 16 + digit;
        chunkSizeDigits = true;
      } else if (b == ';' || b == ' ' || b == '\t') {
        chunkSizeDone = true; // an extension, or whitespace before one
      } else {
        throw new IllegalStateException("bad chunk size");
      }
    }
    return false;
  }

  private boolean done() {
    state = State.HEAD;
    lineLength = 0;
    return true;
  }

  private String lineText() {
    return new String(line, 0, Math.min(lineLength, line.length), StandardCharsets.ISO_8859_1);
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
