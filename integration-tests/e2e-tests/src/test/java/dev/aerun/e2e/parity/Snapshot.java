package dev.aerun.e2e.parity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.e2e.parity.ParityCase.Header;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * An {@link Exchange} flattened into named fields, normalised so that two configurations that
 * behave the same produce equal snapshots. Every field is compared; a field only one side has is a
 * difference too.
 *
 * <p>The normalisations, each for a value that legitimately differs per process or per connection
 * and nothing else:
 *
 * <ul>
 *   <li>The {@code Date} response header is dropped: it is the clock.
 *   <li>The runtime's own port, in any header value, the body, and what the app saw (the {@code
 *       Host} header, a {@code Location}, {@code serverPort}): each runtime listens on its own
 *       port, so {@code :<port>} becomes {@code :<PORT>}. A {@code Content-Length} whose body was
 *       normalised is checked against that body instead of compared, since the port's digit count
 *       may differ.
 *   <li>The app's {@code remotePort} for a direct connection: the client's ephemeral port, new for
 *       every connection. It becomes {@code <client port>} only when it is exactly the port the
 *       client connected from; 0 and any other value are kept and compared.
 *   <li>The {@code deadline_nanos} attribute: a reading of {@code System.nanoTime()} in that JVM.
 *       Whether it is present is still compared, and {@code timeout_millis} is compared exactly.
 *   <li>Session ids ({@code JSESSIONID}) in {@code Set-Cookie}: random per session.
 *   <li>A body the runtime compressed ({@code Content-Encoding} gzip, br or zstd) is compared
 *       decoded: how a compressor splits its output follows how the app's writes were grouped,
 *       which differs between a streamed and a buffered response; what the client reads does not.
 *   <li>An object's identity hash in what the app saw (a request attribute whose value is an
 *       object's default {@code toString()}, {@code Class@1b6d3586}): it becomes {@code
 *       Class@<identity>}, so the class is still compared.
 *   <li>An {@code Expires} computed from the clock (a static file's expiration, not before the
 *       response's {@code Date}): it becomes {@code Date+<seconds>s}, its distance from that
 *       response's own {@code Date}, which is compared. An earlier one is a fixed date and kept.
 * </ul>
 */
final class Snapshot {
  static final String DEADLINE_NANOS = "com.google.appengine.request.deadline_nanos";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SESSION_ID = Pattern.compile("(?i)(JSESSIONID=)[^;\\s]*");

  /** A default {@code Object.toString()}: a class name, {@code @}, the identity hash in hex. */
  private static final Pattern IDENTITY =
      Pattern.compile("\\b([A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)+)@[0-9a-f]{1,8}\\b");

  private final Map<String, String> fields;

  private Snapshot(Map<String, String> fields) {
    this.fields = fields;
  }

  /** An HTTP date, or null when the value is not one. */
  private static Instant httpDate(String value) {
    try {
      return DateTimeFormatter.RFC_1123_DATE_TIME.parse(value.trim(), Instant::from);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  Map<String, String> fields() {
    return fields;
  }

  static Snapshot of(ParityCase c, Exchange e) {
    Map<String, String> f = new LinkedHashMap<>();
    int port = e.serverPort();
    if (e.error() != null) {
      f.put("connection", e.error());
    }
    if (!e.interim().isEmpty()) {
      f.put("interim responses", String.join(" | ", e.interim()));
    }
    f.put("status line", String.valueOf(e.statusLine()));
    if (e.statusLine() == null) {
      return new Snapshot(f);
    }

    List<String> order = new ArrayList<>();
    Map<String, List<String>> values = new LinkedHashMap<>();
    Instant date = null;
    for (Header h : e.headers()) {
      if (h.name().equalsIgnoreCase("Date")) {
        date = httpDate(h.value());
      }
    }
    for (Header h : e.headers()) {
      if (h.name().equalsIgnoreCase("Date")) {
        continue;
      }
      order.add(h.name());
      String value = ports(h.value(), port);
      if (h.name().equalsIgnoreCase("Expires") && date != null) {
        Instant expires = httpDate(value);
        // Only a time ahead of Date comes from the clock; a fixed past one (a deleted cookie's
        // Expires: 1970) is compared as it is.
        if (expires != null && !expires.isBefore(date)) {
          value = "Date+" + Duration.between(date, expires).toSeconds() + "s";
        }
      }
      if (h.name().equalsIgnoreCase("Set-Cookie")) {
        value = SESSION_ID.matcher(value).replaceAll("$1<session>");
      }
      values
          .computeIfAbsent(h.name().toLowerCase(java.util.Locale.ROOT), k -> new ArrayList<>())
          .add(value);
    }
    f.put("header order", String.join(", ", order));
    values.forEach((name, list) -> f.put("header " + name, String.join(" | ", list)));

    BodyCapture body = e.body();
    f.put("body complete", String.valueOf(e.complete()));
    String text = body.text();
    String encoding = f.get("header content-encoding");
    if (text != null && ContentDecoding.decodes(encoding)) {
      BodyCapture decoded = new BodyCapture();
      byte[] plain = ContentDecoding.decode(encoding, text.getBytes(StandardCharsets.ISO_8859_1));
      decoded.write(plain, 0, plain.length);
      f.put("body decoded from", encoding);
      body = decoded;
      text = body.text();
    }
    JsonNode app = text == null ? null : appView(c, e, text);
    boolean normalised = false;
    if (app != null) {
      appFields(app, e, f);
      normalised = true;
    } else if (text != null && looksLikeText(text)) {
      String after = ports(text, port);
      normalised = !after.equals(text);
      f.put("body", after);
    } else {
      f.put("body length", String.valueOf(body.length()));
      f.put("body sha256", body.sha256Hex());
    }
    String contentLength = f.get("header content-length");
    if (normalised && String.valueOf(body.length()).equals(contentLength)) {
      f.put("header content-length", "<length of the body>");
    } else if (contentLength != null
        && "HEAD".equals(c.method())
        && e.status() == 200
        && requestInfo(c)) {
      // The length of the app's view a GET would have sent: it varies with what the view's
      // normalisation masks (the port's digits, identity hashes), so it is not compared.
      f.put("header content-length", "<length of the app's view>");
    }
    return new Snapshot(f);
  }

  /**
   * Whether {@code c} asks the sample app's RequestInfoServlet, which answers /request-info, and
   * also /confidential/* and the welcome servlet's forward from /welcome/.
   */
  private static boolean requestInfo(ParityCase c) {
    return c.isRaw()
        ? c.raw().contains(" /request-info")
        : Stream.of("/request-info", "/confidential/", "/welcome/").anyMatch(c.target()::contains);
  }

  /** What {@code /request-info} reported, if this is its JSON. */
  private static JsonNode appView(ParityCase c, Exchange e, String text) {
    if (!requestInfo(c) || e.status() != 200) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(text);
      return node != null && node.isObject() && node.has("method") ? node : null;
    } catch (IOException notJson) {
      return null;
    }
  }

  private static void appFields(JsonNode app, Exchange e, Map<String, String> f) {
    int port = e.serverPort();
    for (Iterator<Map.Entry<String, JsonNode>> it = app.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String name = "app " + field.getKey();
      JsonNode value = field.getValue();
      if (value.isObject()) {
        List<String> keys = new ArrayList<>();
        value.fieldNames().forEachRemaining(keys::add);
        if (field.getKey().equals("headers")) {
          // The names as the app spells them: a case change is a difference.
          f.put("app header names", ports(String.join(", ", keys), port));
        }
        for (String key : keys) {
          String member = ports(flat(value.get(key)), port);
          if (key.equals(DEADLINE_NANOS)) {
            member = member.matches("-?\\d+") ? "<nanos>" : member;
          }
          f.put(name + " " + key, member);
        }
      } else {
        f.put(name, ports(flat(value), port));
      }
    }
    String remotePort = f.get("app remotePort");
    if (String.valueOf(e.clientPort()).equals(remotePort)) {
      f.put("app remotePort", "<client port>");
    }
    if (String.valueOf(port).equals(f.get("app serverPort"))) {
      f.put("app serverPort", "<PORT>");
    }
    if (e.sent().sha256() != null) {
      // Not a difference between modes but a check that both got the bytes the client sent.
      boolean same =
          String.valueOf(e.sent().length()).equals(f.get("app bodyLength"))
              && Objects.equals(e.sent().sha256(), f.get("app bodySha256"));
      f.put("app read the body the client sent", String.valueOf(same));
    }
  }

  private static String flat(JsonNode node) {
    if (node.isArray()) {
      List<String> items = new ArrayList<>();
      node.forEach(item -> items.add(flat(item)));
      return "[" + String.join(" | ", items) + "]";
    }
    return node.isNull() ? "null" : node.asText();
  }

  private static String ports(String value, int port) {
    String masked = IDENTITY.matcher(value).replaceAll("$1@<identity>");
    return masked.replaceAll(":" + port + "(?!\\d)", Matcher.quoteReplacement(":<PORT>"));
  }

  private static boolean looksLikeText(String text) {
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch < 0x20 && ch != '\n' && ch != '\r' && ch != '\t') {
        return false;
      }
    }
    return true;
  }

  /** Response fields of HTTP/1.1 framing and connection management, which HTTP/2 has not. */
  private static final Set<String> HTTP1_ONLY =
      Set.of("connection", "keep-alive", "transfer-encoding");

  private static final Pattern CHARSET = Pattern.compile("(?i)charset=[^;\\s\\]]+");

  /**
   * This snapshot without what differs between HTTP/1.1 and HTTP/2 by the protocols' definitions,
   * to compare an answer over one with an answer over the other: the status line becomes its status
   * (HTTP/2 has no reason phrase), header names are compared in lower case (HTTP/2 sends them so,
   * to the client and to the app alike), HTTP/1.1's framing and connection fields are dropped from
   * the answer and from the headers the app saw (a chunked HTTP/1.1 body is plain {@code DATA} over
   * HTTP/2), and the app's {@code protocol} ({@code getProtocol()}) is not compared.
   */
  Snapshot acrossTransports() {
    Map<String, String> f = new LinkedHashMap<>();
    fields.forEach(
        (name, value) -> {
          if (name.equals("status line")) {
            String[] parts = value.split(" ", 3);
            f.put("status", parts.length > 1 ? parts[1] : value);
          } else if (name.equals("interim responses")) {
            f.put(name, value.replaceAll("HTTP/[0-9.]+ (\\d{3})[^|]*", "$1 "));
          } else if (name.equals("header order")) {
            // Content-Length is framing over HTTP/1.1, which Jetty writes after the other fields;
            // its value is still compared.
            f.put(
                name,
                withoutHttp1Only(value.toLowerCase(Locale.ROOT))
                    .replaceAll("(^|, )content-length(?=, |$)", "")
                    .replaceAll("^, ", ""));
          } else if (name.startsWith("header ")
              && HTTP1_ONLY.contains(name.substring("header ".length()))) {
            // framing, not content
          } else if (name.equals("app protocol")) {
            // HTTP/1.1 or HTTP/2.0: the one thing the app may tell apart
          } else if (name.equals("app header names")) {
            f.put(name, withoutHttp1Only(value.toLowerCase(Locale.ROOT)));
          } else if (name.startsWith("app headers ")) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("app headers content-type")) {
              // A charset name is case-insensitive (RFC 9110, 8.3.2); Jetty's HPACK decoder hands
              // the app its own spelling of a common Content-Type.
              f.put(
                  lower,
                  CHARSET.matcher(value).replaceAll(m -> m.group().toLowerCase(Locale.ROOT)));
            } else if (!HTTP1_ONLY.contains(lower.substring("app headers ".length()))) {
              f.put(lower, value);
            }
          } else {
            f.put(name, value);
          }
        });
    return new Snapshot(f);
  }

  /** A list of header names ({@code a, b, c}) without HTTP/1.1's framing and connection ones. */
  private static String withoutHttp1Only(String names) {
    List<String> kept = new ArrayList<>();
    for (String name : names.split(", ")) {
      if (!HTTP1_ONLY.contains(name)) {
        kept.add(name);
      }
    }
    return String.join(", ", kept);
  }

  /**
   * Every field whose value differs, or that only one side has, as lines {@code field: expected |
   * actual}; empty when they match.
   */
  static List<String> differences(
      Snapshot reference, String referenceName, Snapshot other, String otherName) {
    List<String> lines = new ArrayList<>();
    Map<String, String> all = new LinkedHashMap<>(reference.fields);
    other.fields.forEach(all::putIfAbsent);
    for (String field : all.keySet()) {
      String expected = reference.fields.get(field);
      String actual = other.fields.get(field);
      if (!Objects.equals(expected, actual)) {
        int from = firstDifference(expected, actual);
        lines.add(
            field
                + (from > 0 ? " (from char " + from + ")" : "")
                + ":\n      "
                + referenceName
                + ": "
                + show(expected, from)
                + "\n      "
                + otherName
                + ": "
                + show(actual, from));
      }
    }
    return lines;
  }

  /** Where two long values start to differ, so a report shows that part; 0 for short ones. */
  private static int firstDifference(String a, String b) {
    if (a == null || b == null || Math.max(a.length(), b.length()) <= 600) {
      return 0;
    }
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return Math.max(0, i - 100);
  }

  private static String show(String value) {
    return show(value, 0);
  }

  private static String show(String value, int from) {
    if (value == null) {
      return "(absent)";
    }
    String part = from > 0 ? "…" + value.substring(Math.min(from, value.length())) : value;
    String escaped = part.replace("\r", "\\r").replace("\n", "\\n");
    return escaped.length() > 600
        ? escaped.substring(0, 600) + "… (" + value.length() + " chars)"
        : "'" + escaped + "'";
  }

  /** Every field in full, one per line, for the snapshot files. */
  String dump() {
    StringBuilder out = new StringBuilder();
    fields.forEach(
        (k, v) ->
            out.append(k)
                .append(": ")
                .append(v.replace("\r", "\\r").replace("\n", "\\n"))
                .append('\n'));
    return out.toString();
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    fields.forEach((k, v) -> out.append("  ").append(k).append(": ").append(show(v)).append('\n'));
    return out.toString();
  }
}
