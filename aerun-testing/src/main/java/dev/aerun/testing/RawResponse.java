package dev.aerun.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP/1.1 response as read off a raw socket ({@link RawHttp}), before any client made sense of
 * it: for requests the JDK client sends awkwardly or not at all (conditional and range requests,
 * odd request targets, forged headers) and for answers a test wants to see byte for byte.
 *
 * @param interim the status lines of 1xx answers before the final one
 * @param statusLine the final status line, or null if the connection ended before one
 * @param headers the final answer's header lines ({@code Name: value}) in order, as sent
 * @param body the body after chunk decoding, as ISO-8859-1 text (bytes preserved one to one); empty
 *     when it went to a sink of the caller's
 * @param trailers the trailer lines after the last chunk
 * @param complete whether the body ended where its framing said (all of {@code Content-Length}, the
 *     last chunk, or the end of the connection for a body without framing)
 * @param error how the connection ended abnormally ({@code closed}, {@code reset}, {@code timeout},
 *     {@code closed before a response}, {@code unparseable: ...}), or null
 * @param raw the bytes received for this response as ISO-8859-1 text, head and body as sent; empty
 *     when the body went to a sink of the caller's
 */
public record RawResponse(
    List<String> interim,
    String statusLine,
    List<String> headers,
    String body,
    List<String> trailers,
    boolean complete,
    String error,
    String raw) {

  /**
   * Sends {@code method target} with {@code headers} and {@code Connection: close} on a fresh
   * connection and reads the answer.
   *
   * @throws AssertionError if the connection ended before a status line
   */
  public static RawResponse send(int port, String method, String target, String... headers)
      throws IOException {
    StringBuilder request =
        new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    try (RawHttp connection = RawHttp.connect(port)) {
      connection.write(request.toString());
      return connection.readResponse(method.equals("HEAD")).requireStatus();
    }
  }

  /** A {@code GET}: {@link #send}. */
  public static RawResponse get(int port, String target, String... headers) throws IOException {
    return send(port, "GET", target, headers);
  }

  /**
   * Reads the first response of {@code raw} (everything a server sent, e.g. from {@link
   * RawHttp#exchange}).
   *
   * @throws AssertionError if there is no status line
   */
  public static RawResponse parse(String raw) {
    try (RawHttp.Reader reader =
        new RawHttp.Reader(
            new java.io.ByteArrayInputStream(raw.getBytes(StandardCharsets.ISO_8859_1)))) {
      return reader.readResponse(false, null, () -> {}).requireStatus();
    }
  }

  /** The final status code, or -1 if there was no final answer. */
  public int status() {
    if (statusLine == null) {
      return -1;
    }
    String[] parts = statusLine.split(" ", 3);
    return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
  }

  /** The first value of header {@code name} (case-insensitive), trimmed; null if none. */
  public String header(String name) {
    List<String> values = headerValues(name);
    return values.isEmpty() ? null : values.get(0);
  }

  /** Every value of header {@code name} (case-insensitive), trimmed, in order. */
  public List<String> headerValues(String name) {
    return values(headers, name);
  }

  /** Every value of trailer {@code name} (case-insensitive), trimmed, in order. */
  public List<String> trailerValues(String name) {
    return values(trailers, name);
  }

  /** The body's bytes. */
  public byte[] bodyBytes() {
    return body.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * This response, if it has a status line.
   *
   * @throws AssertionError if the connection ended before one
   */
  public RawResponse requireStatus() {
    if (statusLine == null) {
      throw new AssertionError("no response (" + error + "): " + raw);
    }
    return this;
  }

  private static List<String> values(List<String> lines, String name) {
    String prefix = name.toLowerCase(Locale.ROOT) + ":";
    List<String> values = new ArrayList<>();
    for (String line : lines) {
      if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
        values.add(line.substring(prefix.length()).trim());
      }
    }
    return values;
  }
}
