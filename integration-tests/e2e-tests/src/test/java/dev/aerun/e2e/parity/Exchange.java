package dev.aerun.e2e.parity;

import dev.aerun.e2e.parity.ParityCase.Header;
import java.util.List;

/**
 * What one request got back, as raw as the client saw it: before any normalisation.
 *
 * @param interim the status lines of 1xx answers before the final one
 * @param statusLine the final status line, or null if the connection ended before one
 * @param headers the final answer's header fields in order, names as sent
 * @param body the body after chunk decoding
 * @param complete whether the body ended where its framing said (all of {@code Content-Length}, or
 *     the last chunk); false if the connection ended first
 * @param error how the connection ended abnormally ({@code closed}, {@code reset}, {@code
 *     timeout}), or null
 * @param sent the request body's content as the client sent it (length and SHA-256)
 * @param clientPort the client's own ephemeral port for this request
 * @param serverPort the port of the runtime that answered
 */
record Exchange(
    List<String> interim,
    String statusLine,
    List<Header> headers,
    BodyCapture body,
    boolean complete,
    String error,
    Sent sent,
    int clientPort,
    int serverPort) {

  /** The request body the client wrote. */
  record Sent(long length, String sha256) {}

  int status() {
    if (statusLine == null) {
      return -1;
    }
    String[] parts = statusLine.split(" ", 3);
    return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
  }
}
