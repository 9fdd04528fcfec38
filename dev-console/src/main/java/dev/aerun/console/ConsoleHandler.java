package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import dev.aerun.runtime.dev.DevPage;
import dev.aerun.runtime.dev.DevStatusHandler;
import dev.aerun.runtime.dev.DeveloperHandler;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.FormFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * Answers the console's pages under {@code /_ah/dev/} for the developer at this machine, as the
 * {@link DeveloperHandler} in front of it found (a loopback client naming a development host);
 * every other request, and these paths from anyone else, go on to the app unchanged.
 *
 * <p>Pages are GETs and change nothing. An action is a POST that must come from this origin ({@code
 * Origin}, when the browser sends one, names this host; {@code Sec-Fetch-Site}, when sent, is
 * {@code same-origin}) and carry a token of a page this process rendered ({@link PageTokens});
 * anything else gets 403 and changes nothing. A done action answers 303 to the page that shows its
 * effect. Blocks its thread for the API host's calls: development only.
 */
final class ConsoleHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(ConsoleHandler.class.getName());

  /** The form field of the page's token. */
  static final String TOKEN = "token";

  /** Where the sections are: {@code /_ah/dev/}. */
  static final String PREFIX = DevStatusHandler.PATH + "/";

  /** The most fields and bytes a form may have (an edited Text value is the largest). */
  private static final int MAX_FORM_FIELDS = 64;

  private static final int MAX_FORM_BYTES = 2 * 1024 * 1024;

  private final Map<String, ConsoleSection> sections = new LinkedHashMap<>();
  private final boolean hasHost;
  private final PageTokens tokens;

  ConsoleHandler(List<ConsoleSection> sections, boolean hasHost, PageTokens tokens) {
    sections.forEach(s -> this.sections.put(s.name(), s));
    this.hasHost = hasHost;
    this.tokens = tokens;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    if (!path.startsWith(PREFIX) || !DeveloperHandler.isDeveloper(request)) {
      return super.handle(request, response, callback);
    }
    String rest = path.substring(PREFIX.length());
    int slash = rest.indexOf('/');
    String name = slash < 0 ? rest : rest.substring(0, slash);
    String sub = slash < 0 ? "" : rest.substring(slash + 1);
    ConsoleSection section = sections.get(name);
    String method = request.getMethod();
    if (section == null || !(section.pages().contains(sub) || section.actions().contains(sub))) {
      send(request, response, callback, Answer.error(404, "Not found", "No such console page."));
      return true;
    }
    boolean get = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
    boolean post = HttpMethod.POST.is(method);
    if (section.pages().contains(sub) ? !get : !post) {
      response
          .getHeaders()
          .put(HttpHeader.ALLOW, section.pages().contains(sub) ? "GET, HEAD" : "POST");
      send(
          request,
          response,
          callback,
          Answer.error(
              405,
              section.title(),
              section.pages().contains(sub)
                  ? "This page only shows; its actions are forms on it."
                  : "An action is a POST from its page's form."));
      return true;
    }
    if (section.needsHost() && !hasHost) {
      send(
          request,
          response,
          callback,
          Answer.error(
              404,
              section.title(),
              "No local API host: the app has no <app-engine-apis>true</app-engine-apis>, or its"
                  + " calls go to an API host named with --api-host, API_HOST or"
                  + " LOCAL_API_HOSTPORT, which this console does not change."));
      return true;
    }
    Answer answer;
    try {
      if (get) {
        answer = section.pageBlocking(sub, Request.extractQueryParameters(request), tokens.issue());
      } else {
        String refused = refusal(request);
        Fields form = refused == null ? formBlocking(request) : null;
        if (refused == null && (form == null || !tokens.valid(form.getValue(TOKEN)))) {
          refused = "the form's token is missing, wrong or expired: reload the page and try again";
        }
        answer =
            refused != null
                ? Answer.error(403, section.title(), "Refused: " + refused + ".")
                : section.actBlocking(sub, form);
      }
    } catch (IllegalArgumentException | BadMessageException e) {
      answer = Answer.error(400, section.title(), String.valueOf(e.getMessage()));
    } catch (ApiCallException e) {
      answer =
          Answer.error(
              502, section.title(), "The local API host answered: " + e.getMessage() + ".");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      answer = Answer.error(503, section.title(), "Interrupted.");
    } catch (RuntimeException e) {
      log.log(Level.WARNING, "console " + path + " failed", e);
      answer = Answer.error(500, section.title(), "Failed: " + e);
    }
    send(request, response, callback, answer);
    return true;
  }

  /**
   * Why a POST is refused before its form is read (another origin), or null. A browser names the
   * origin of every POST a page makes; a client that names none (curl) still needs a token.
   */
  private static String refusal(Request request) {
    String site = request.getHeaders().get("Sec-Fetch-Site");
    if (site != null && !site.equalsIgnoreCase("same-origin")) {
      return "it came from another site (Sec-Fetch-Site: " + site + ")";
    }
    String origin = request.getHeaders().get(HttpHeader.ORIGIN);
    if (origin != null && !sameAuthority(origin, request.getHeaders().get(HttpHeader.HOST))) {
      return "it came from another origin (" + origin + ")";
    }
    return null;
  }

  /** Whether the origin {@code origin} names {@code host} (the request's Host header). */
  private static boolean sameAuthority(String origin, String host) {
    try {
      String authority = URI.create(origin.trim()).getRawAuthority();
      return authority != null && host != null && authority.equalsIgnoreCase(host.trim());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The POST's form fields; null when it is not a form. */
  private static Fields formBlocking(Request request) {
    String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    if (type == null
        || !type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
      return null;
    }
    try {
      return FormFields.getFields(request, MAX_FORM_FIELDS, MAX_FORM_BYTES);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the form cannot be read: " + e.getMessage());
    }
  }

  private static void send(Request request, Response response, Callback callback, Answer answer) {
    if (answer.location() != null) {
      DevPage.headers(response);
      response.setStatus(HttpStatus.SEE_OTHER_303);
      response.getHeaders().put(HttpHeader.LOCATION, answer.location());
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
      callback.succeeded();
      return;
    }
    String html = DevPage.document(answer.title(), sectionOf(request), answer.body());
    if (HttpMethod.HEAD.is(request.getMethod())) {
      DevPage.headers(response);
      response.setStatus(answer.status());
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
      callback.succeeded();
      return;
    }
    DevPage.write(response, callback, answer.status(), html);
  }

  private static String sectionOf(Request request) {
    String path = Request.getPathInContext(request);
    for (DevPage.Section section : DevPage.SECTIONS) {
      if (path.equals(section.path()) || path.startsWith(section.path() + "/")) {
        if (!section.path().equals(DevStatusHandler.PATH)) {
          return section.path();
        }
      }
    }
    return "";
  }
}
