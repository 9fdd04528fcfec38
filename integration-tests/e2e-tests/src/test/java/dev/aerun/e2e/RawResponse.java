package dev.aerun.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP/1.1 response read off a raw socket ({@link Http#raw}), for requests the JDK client sends
 * awkwardly or not at all: conditional and range requests, odd request targets.
 *
 * @param status the status code
 * @param headers the header lines as {@code name: value}, in order
 * @param body the body as ISO-8859-1 text (bytes preserved one to one)
 */
record RawResponse(int status, List<String> headers, String body) {

  /** Sends {@code method target} with {@code headers} on a fresh connection. */
  static RawResponse send(int port, String method, String target, String... headers)
      throws IOException {
    StringBuilder request =
        new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    return parse(Http.raw(port, request.toString()));
  }

  static RawResponse get(int port, String target, String... headers) throws IOException {
    return send(port, "GET", target, headers);
  }

  static RawResponse parse(String raw) {
    int end = raw.indexOf("\r\n\r\n");
    if (end < 0) {
      throw new AssertionError("no complete response: " + raw);
    }
    String[] lines = raw.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    List<String> headers = new ArrayList<>(List.of(lines).subList(1, lines.length));
    return new RawResponse(status, headers, raw.substring(end + 4));
  }

  /** The first value of header {@code name} (case-insensitive), or null. */
  String header(String name) {
    String prefix = name.toLowerCase(Locale.ROOT) + ":";
    for (String line : headers) {
      if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
        return line.substring(prefix.length()).trim();
      }
    }
    return null;
  }

  byte[] bodyBytes() {
    return body.getBytes(StandardCharsets.ISO_8859_1);
  }
}
