package dev.aerun.runtime.dev;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The pages of the development server's console at {@value DevStatusHandler#PATH}: one layout (a
 * title, the sections' links, the content), plain server-rendered HTML with no script, no external
 * style or font, every value escaped ({@link #escape}), and headers that keep other origins out:
 * the page cannot be framed, its forms post only to this origin, nothing else loads.
 */
public final class DevPage {
  private DevPage() {}

  /** The title of the first page, and the end of every other page's. */
  public static final String TITLE = "aerun development server";

  /**
   * A section of the console.
   *
   * @param path the section's page
   * @param label its link's text
   */
  public record Section(String path, String label) {}

  /** The console's sections, the status page first. */
  public static final List<Section> SECTIONS =
      List.of(
          new Section(DevStatusHandler.PATH, "Status"),
          new Section(DevStatusHandler.PATH + "/datastore", "Datastore"),
          new Section(DevStatusHandler.PATH + "/taskqueue", "Task queues"),
          new Section(DevStatusHandler.PATH + "/cron", "Cron"),
          new Section(DevStatusHandler.PATH + "/memcache", "Memcache"),
          new Section(DevStatusHandler.PATH + "/mail", "Mail"));

  private static final String STYLE =
      "body{font-family:sans-serif;margin:1em 2em;color:#222}"
          + "nav a{margin-right:1em}nav a.here{font-weight:bold;text-decoration:none;color:#222}"
          + "table{border-collapse:collapse;margin:.5em 0}"
          + "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
          + "th{background:#f2f2f2}pre{background:#f7f7f7;padding:.5em;white-space:pre-wrap}"
          + "form.inline{display:inline;margin:0}.note{color:#555}.done{color:#060}"
          + ".error{color:#a00}code{background:#f2f2f2}";

  /** The policy every console page is sent with: its own style only, forms to itself only. */
  public static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; style-src '"
          + sha256(STYLE)
          + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private static String sha256(String text) {
    try {
      return "sha256-"
          + Base64.getEncoder()
              .encodeToString(
                  MessageDigest.getInstance("SHA-256")
                      .digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code text} with the characters HTML gives a meaning to replaced by references. */
  public static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * A whole page: {@code title} (" - " and {@link #TITLE} after it, unless it is the title), the
   * sections' links with {@code here} marked, then {@code body}, which must already be HTML.
   */
  public static String document(String title, String here, String body) {
    StringBuilder page = new StringBuilder(body.length() + 1024);
    String full = title.equals(TITLE) ? TITLE : title + " - " + TITLE;
    page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>")
        .append(escape(full))
        .append("</title><style>")
        .append(STYLE)
        .append("</style></head>\n<body>\n<nav>");
    for (Section section : SECTIONS) {
      page.append("<a href=\"")
          .append(escape(section.path()))
          .append(section.path().equals(here) ? "\" class=\"here\">" : "\">")
          .append(escape(section.label()))
          .append("</a>");
    }
    page.append("</nav>\n<h1>").append(escape(title)).append("</h1>\n");
    page.append(body).append("\n</body></html>\n");
    return page.toString();
  }

  /** Sends {@code html} with {@code status} and the headers every console page has. */
  public static void write(Response response, Callback callback, int status, String html) {
    response.setStatus(status);
    headers(response);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
    response.write(true, StandardCharsets.UTF_8.encode(html), callback);
  }

  /** The headers of every console answer: not cached, not framed, nothing loaded from elsewhere. */
  public static void headers(Response response) {
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    response.getHeaders().put("X-Frame-Options", "DENY");
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put("Referrer-Policy", "same-origin");
  }
}
