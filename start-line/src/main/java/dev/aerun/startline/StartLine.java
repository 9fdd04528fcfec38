package dev.aerun.startline;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line a server writes once it serves, {@code Serving WHAT at http://HOST:PORT/ - started in N
 * ms} with an optional note after it: people read it, and tools wait for it and take the port from
 * it. The launcher writes it (as text, or as the message of a JSON log entry), and so does the
 * benchmarks' bare Jetty; the Maven plugin, the test harness and the benchmark driver read it with
 * {@link #find}. Its shape is a contract: scripts wait for it too.
 *
 * @param host the host in the line's URL ({@code localhost} where the server listens on every
 *     address)
 * @param port the port the server listens on
 * @param startedMillis how long the start took, as the line says
 */
public record StartLine(String host, int port, long startedMillis) {
  /**
   * Within one line (the server's own, or a JSON entry's message): a host stops at what ends a URL
   * or a JSON string. A server that also listens on a Unix-domain socket names it after the URL
   * ({@code at http://HOST:PORT/ and unix:PATH - started in ...}).
   */
  private static final Pattern LINE =
      Pattern.compile(
          "Serving [^\\n]*? at http://([^/\\s\"]+):(\\d+)/(?: and unix:[^\\s\"]+)? - started in"
              + " (\\d+) ms");

  /**
   * The start line: {@code Serving <what> at http://<host>:<port>/ - started in <millis> ms<note>}.
   *
   * @param what what serves and how, e.g. {@code app.war in HttpConnector mode (EE10) on Jetty
   *     12.1.7}
   * @param note appended as is (empty for none), e.g. {@code ; development: ...}
   */
  public static String format(String what, String host, int port, long startedMillis, String note) {
    return format(what, "http://" + host + ":" + port + "/", startedMillis, note);
  }

  /**
   * The start line for a server whose URL is known as a whole.
   *
   * @param url where the server takes requests, {@code http://<host>:<port>/}
   */
  public static String format(String what, String url, long startedMillis, String note) {
    return "Serving " + what + " at " + url + " - started in " + startedMillis + " ms" + note;
  }

  /**
   * The first start line in {@code output} (any number of lines, text or JSON), if there is one.
   */
  public static Optional<StartLine> find(CharSequence output) {
    Matcher m = LINE.matcher(output);
    if (!m.find()) {
      return Optional.empty();
    }
    return Optional.of(
        new StartLine(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3))));
  }

  /** {@code http://<host>:<port>/}, as the line writes it. */
  public String url() {
    return "http://" + host + ":" + port + "/";
  }
}
