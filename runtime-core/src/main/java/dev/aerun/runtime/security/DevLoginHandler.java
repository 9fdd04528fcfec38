package dev.aerun.runtime.security;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.dev.DeveloperHandler;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.FormFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.URIUtil;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * Development only: a login page at {@value #LOGIN_PATH} where a developer picks an e-mail and
 * whether that user is an admin, and {@value #LOGOUT_PATH} to sign out. The choice is kept in a
 * cookie, and every later request of that browser without a user from a trusted front end gets that
 * user, as if the front end had said so. Never installed in production: anyone could claim to be
 * anyone with the cookie.
 *
 * <p>Even in development, only the developer at this machine ({@link DeveloperHandler}) gets the
 * page or is signed in by the cookie; anyone else's request goes on to the app as in production.
 * {@code GET} shows the form; signing in is a {@code POST} of its fields ({@code email}, {@code
 * admin}, {@code action}, {@code continue}) from a page of the same origin, so another site cannot
 * sign the developer in; signing out may be a {@code GET} (the Users API's logout URL is a link).
 * The cookie is {@code HttpOnly} and {@code SameSite=Lax}; one that does not parse is ignored.
 */
public final class DevLoginHandler extends Handler.Wrapper {
  public static final String LOGIN_PATH = "/_ah/login";
  public static final String LOGOUT_PATH = "/_ah/logout";

  /** The cookie holding {@code email:admin}, URL-encoded. */
  public static final String COOKIE = "dev_appserver_login";

  /** Bounds on the sign-in form: a handful of short fields. */
  private static final int MAX_FORM_FIELDS = 16;

  private static final int MAX_FORM_BYTES = 8 * 1024;

  public DevLoginHandler() {}

  public DevLoginHandler(Handler next) {
    super(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!DeveloperHandler.isDeveloper(request)) {
      return super.handle(request, response, callback);
    }
    String path = Request.getPathInContext(request);
    if (LOGIN_PATH.equals(path) || LOGOUT_PATH.equals(path)) {
      page(request, response, callback, LOGOUT_PATH.equals(path));
      return true;
    }
    if (AppEngineUsers.user(request) == null) {
      signInFromCookie(request);
    }
    return super.handle(request, response, callback);
  }

  private void page(Request request, Response response, Callback callback, boolean logoutPath) {
    String method = request.getMethod();
    Fields query = queryOf(request);
    if (HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method)) {
      String back = safeContinue(query.getValue("continue"), Request.getServerName(request));
      if (logoutPath || "logout".equals(query.getValue("action"))) {
        signOut(request, response, callback, back);
      } else {
        form(response, callback, back, null);
      }
    } else if (HttpMethod.POST.is(method) && !logoutPath) {
      if (!sameOrigin(request)) {
        Response.writeError(request, response, callback, HttpStatus.FORBIDDEN_403);
        return;
      }
      // Read without blocking; what follows only writes the answer, without blocking either.
      FormFields.onFields(
          request,
          StandardCharsets.UTF_8,
          MAX_FORM_FIELDS,
          MAX_FORM_BYTES,
          Promise.Invocable.from(
              Invocable.InvocationType.NON_BLOCKING,
              (fields, failure) -> {
                if (failure != null) {
                  Response.writeError(request, response, callback, HttpStatus.BAD_REQUEST_400);
                } else {
                  submitted(request, response, callback, fields);
                }
              }));
    } else {
      response.getHeaders().put(HttpHeader.ALLOW, logoutPath ? "GET, HEAD" : "GET, HEAD, POST");
      Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
    }
  }

  /** The posted form: sign in (or out), then back where the user came from. */
  private static void submitted(
      Request request, Response response, Callback callback, Fields fields) {
    String back = safeContinue(fields.getValue("continue"), Request.getServerName(request));
    if ("logout".equals(fields.getValue("action"))) {
      signOut(request, response, callback, back);
      return;
    }
    String email = fields.getValue("email");
    if (!"login".equals(fields.getValue("action"))
        || email == null
        || email.isBlank()
        || email.indexOf(':') >= 0) {
      form(response, callback, back, "Enter an e-mail address.");
      return;
    }
    boolean admin = fields.getValue("admin") != null;
    Response.addCookie(response, cookie(encode(email.trim() + ":" + admin), -1));
    Response.sendRedirect(request, response, callback, HttpStatus.SEE_OTHER_303, back, true);
  }

  private static void signOut(Request request, Response response, Callback callback, String back) {
    Response.addCookie(response, cookie("", 0));
    Response.sendRedirect(request, response, callback, HttpStatus.FOUND_302, back, true);
  }

  /** The query's fields; a query that does not parse has none. */
  private static Fields queryOf(Request request) {
    try {
      return Request.extractQueryParameters(request);
    } catch (RuntimeException e) {
      return Fields.EMPTY;
    }
  }

  /**
   * Whether a form post comes from a page of this server: browsers send {@code Origin} with a
   * {@code POST}; one naming another host is a cross-site form (a tool sending none is let in).
   */
  static boolean sameOrigin(Request request) {
    String origin = request.getHeaders().get(HttpHeader.ORIGIN);
    if (origin == null) {
      return true;
    }
    try {
      HttpURI uri = HttpURI.from(origin);
      String host = Request.getServerName(request);
      return uri.getHost() != null
          && host != null
          && uri.getHost().equalsIgnoreCase(host)
          && URIUtil.normalizePortForScheme(uri.getScheme(), uri.getPort())
              == URIUtil.normalizePortForScheme(
                  request.getHttpURI().getScheme(), Request.getServerPort(request));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Sets the user attributes from the cookie, as the contract would for a front end's user. */
  private static void signInFromCookie(Request request) {
    for (HttpCookie cookie : Request.getCookies(request)) {
      if (!COOKIE.equals(cookie.getName())) {
        continue;
      }
      String value;
      try {
        value = URLDecoder.decode(cookie.getValue(), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return; // not one this page wrote: the request stays anonymous
      }
      int colon = value.lastIndexOf(':');
      String flag = colon < 0 ? "" : value.substring(colon + 1);
      if (colon <= 0 || value.substring(0, colon).isBlank() || !isBoolean(flag)) {
        return;
      }
      String email = value.substring(0, colon);
      request.setAttribute(RequestAttributes.USER_EMAIL, email);
      request.setAttribute(RequestAttributes.USER_ID, userId(email));
      request.setAttribute(RequestAttributes.USER_NICKNAME, email);
      request.setAttribute(RequestAttributes.USER_AUTH_DOMAIN, "gmail.com");
      request.setAttribute(RequestAttributes.USER_IS_ADMIN, Boolean.parseBoolean(flag));
      return;
    }
  }

  private static boolean isBoolean(String text) {
    return "true".equals(text) || "false".equals(text);
  }

  /** A stable, made-up numeric id per e-mail, as the platform gives every user one. */
  static String userId(String email) {
    long hash = 1125899906842597L;
    for (char c : email.toLowerCase(Locale.ROOT).toCharArray()) {
      hash = 31 * hash + c;
    }
    return Long.toUnsignedString(hash & Long.MAX_VALUE);
  }

  /**
   * Where to send the user back: a path of this server, as the redirect will be read. {@code value}
   * may be a path or an http(s) URL naming {@code host}; its path is decoded and its dot segments
   * applied ({@code /a/..//evil.example/} is {@code //evil.example/}, which a browser reads as
   * another host), and what is left must be a path of this server. Anything else, or anything that
   * does not parse, is {@code /}.
   */
  static String safeContinue(String value, String host) {
    if (value == null || value.chars().anyMatch(c -> c < ' ' || c == 0x7f || c == '\\')) {
      return "/";
    }
    try {
      HttpURI uri = HttpURI.from(value);
      if (uri.getScheme() != null || uri.getHost() != null) {
        boolean web =
            "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
        if (!web
            || uri.getUser() != null
            || host == null
            || !host.equalsIgnoreCase(uri.getHost())) {
          return "/";
        }
      } else if (!value.startsWith("/")) {
        return "/";
      }
      String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
      // Decoded, path parameters dropped, dot segments applied, encoded again: the path as it
      // will be served. Empty segments are refused: "//host" is another host to a browser.
      String canonical = URIUtil.canonicalPath(URIUtil.decodePath(stripParameters(path)));
      if (canonical == null || !canonical.startsWith("/") || canonical.contains("//")) {
        return "/";
      }
      String query = uri.getQuery();
      return canonical + (query == null ? "" : "?" + query);
    } catch (RuntimeException e) {
      return "/";
    }
  }

  /** {@code path} without its {@code ;name=value} path parameters. */
  private static String stripParameters(String path) {
    if (path.indexOf(';') < 0) {
      return path;
    }
    String[] segments = path.split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      int semicolon = segments[i].indexOf(';');
      if (semicolon >= 0) {
        segments[i] = segments[i].substring(0, semicolon);
      }
    }
    return String.join("/", segments);
  }

  private static HttpCookie cookie(String value, long maxAge) {
    return HttpCookie.build(COOKIE, value)
        .path("/")
        .httpOnly(true)
        .sameSite(HttpCookie.SameSite.LAX)
        .maxAge(maxAge)
        .build();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static void form(Response response, Callback callback, String back, String problem) {
    String html =
        "<!DOCTYPE html>\n<html><head><title>Development login</title></head><body>\n"
            + "<h1>Development login</h1>\n"
            + (problem == null ? "" : "<p>" + escape(problem) + "</p>\n")
            + "<p>Not a real sign-in: this page exists only with --development.</p>\n"
            + "<form method=\"post\" action=\""
            + LOGIN_PATH
            + "\">\n"
            + "<input type=\"hidden\" name=\"continue\" value=\""
            + escape(back)
            + "\">\n"
            + "<label>E-mail <input type=\"email\" name=\"email\" value=\"test@example.com\"></label>\n"
            + "<label><input type=\"checkbox\" name=\"admin\"> Sign in as administrator</label>\n"
            + "<button name=\"action\" value=\"login\">Log in</button>\n"
            + "<button name=\"action\" value=\"logout\">Log out</button>\n"
            + "</form>\n</body></html>\n";
    response.setStatus(HttpStatus.OK_200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    Content.Sink.write(response, true, html, callback);
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
