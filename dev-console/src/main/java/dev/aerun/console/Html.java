package dev.aerun.console;

import dev.aerun.runtime.dev.DevPage;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Builds a page's HTML: {@link #text} escapes every value it is given, {@link #tag} writes only the
 * markup the console itself spells. Forms that change something carry the page's token.
 */
final class Html {
  private final StringBuilder out = new StringBuilder(4096);

  /** Markup the console spells itself (never a value from a request or a service). */
  Html tag(String markup) {
    out.append(markup);
    return this;
  }

  /** A value, escaped. */
  Html text(Object value) {
    out.append(DevPage.escape(String.valueOf(value)));
    return this;
  }

  /** {@code <tag>value</tag>}, the value escaped. */
  Html element(String tag, Object value) {
    return tag("<" + tag + ">").text(value).tag("</" + tag.split(" ", 2)[0] + ">");
  }

  /** What an action did, on the page it redirected to; nothing for null. */
  Html done(String message) {
    return message == null ? this : tag("<p class=\"done\">").text(message).tag("</p>\n");
  }

  /** A link to {@code path} with {@code params} (name, value, ...) encoded. */
  Html link(String label, String path, String... params) {
    return tag("<a href=\"").text(url(path, params)).tag("\">").text(label).tag("</a>");
  }

  /** A hidden form field. */
  Html hidden(String name, String value) {
    return tag("<input type=\"hidden\" name=\"")
        .text(name)
        .tag("\" value=\"")
        .text(value)
        .tag("\">");
  }

  /**
   * A form that changes something: posted to {@code action} with the page's {@code token} and the
   * hidden {@code fields} (name, value, ...), one button.
   */
  Html actionForm(String action, String token, String button, String... fields) {
    tag("<form class=\"inline\" method=\"post\" action=\"").text(action).tag("\">");
    hidden(ConsoleHandler.TOKEN, token);
    for (int i = 0; i + 1 < fields.length; i += 2) {
      hidden(fields[i], fields[i + 1]);
    }
    return tag("<button type=\"submit\">").text(button).tag("</button></form>");
  }

  /** {@code path?name=value&...}, each name and value URL-encoded (not yet HTML-escaped). */
  static String url(String path, String... params) {
    StringBuilder url = new StringBuilder(path);
    char separator = '?';
    for (int i = 0; i + 1 < params.length; i += 2) {
      if (params[i + 1] == null) {
        continue;
      }
      url.append(separator)
          .append(URLEncoder.encode(params[i], StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(params[i + 1], StandardCharsets.UTF_8));
      separator = '&';
    }
    return url.toString();
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
