package dev.aerun.runtime.security;

import dev.aerun.runtime.contract.RequestAttributes;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * Development only: a login page at {@value #LOGIN_PATH} where a developer picks an e-mail and
 * whether that user is an admin, and {@value #LOGOUT_PATH} to sign out. The choice is kept in a
 * cookie, and every later request of that browser without a user from a trusted front end gets that
 * user, as if the front end had said so. Never installed in production: anyone could claim to be
 * anyone with the cookie.
 */
public final class DevLoginHandler extends Handler.Wrapper {
  public static final String LOGIN_PATH = "/_ah/login";
  public static final String LOGOUT_PATH = "/_ah/logout";

  /** The cookie holding {@code email:admin}, URL-encoded. */
  public static final String COOKIE = "dev_appserver_login";

  public DevLoginHandler(Handler next) {
    super(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    if (LOGIN_PATH.equals(path) || LOGOUT_PATH.equals(path)) {
      if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
        Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
        return true;
      }
      Fields query = Request.extractQueryParameters(request);
      String back = safeContinue(query.getValue("continue"), Request.getServerName(request));
      if (LOGOUT_PATH.equals(path) || "logout".equals(query.getValue("action"))) {
        Response.addCookie(response, cookie("", 0));
        Response.sendRedirect(request, response, callback, HttpStatus.FOUND_302, back, true);
      } else if ("login".equals(query.getValue("action"))) {
        String email = query.getValue("email");
        if (email == null || email.isBlank() || email.indexOf(':') >= 0) {
          page(response, callback, back, "Enter an e-mail address.");
          return true;
        }
        boolean admin = query.getValue("admin") != null;
        Response.addCookie(response, cookie(encode(email.trim() + ":" + admin), -1));
        Response.sendRedirect(request, response, callback, HttpStatus.FOUND_302, back, true);
      } else {
        page(response, callback, back, null);
      }
      return true;
    }
    if (AppEngineUsers.user(request) == null) {
      signInFromCookie(request);
    }
    return super.handle(request, response, callback);
  }

  /** Sets the user attributes from the cookie, as the contract would for a front end's user. */
  private static void signInFromCookie(Request request) {
    List<HttpCookie> cookies = Request.getCookies(request);
    for (HttpCookie cookie : cookies) {
      if (!COOKIE.equals(cookie.getName())) {
        continue;
      }
      String value = URLDecoder.decode(cookie.getValue(), StandardCharsets.UTF_8);
      int colon = value.lastIndexOf(':');
      if (colon <= 0) {
        return;
      }
      String email = value.substring(0, colon);
      request.setAttribute(RequestAttributes.USER_EMAIL, email);
      request.setAttribute(RequestAttributes.USER_ID, userId(email));
      request.setAttribute(RequestAttributes.USER_NICKNAME, email);
      request.setAttribute(RequestAttributes.USER_AUTH_DOMAIN, "gmail.com");
      request.setAttribute(
          RequestAttributes.USER_IS_ADMIN, Boolean.parseBoolean(value.substring(colon + 1)));
      return;
    }
  }

  /** A stable, made-up numeric id per e-mail, as the platform gives every user one. */
  static String userId(String email) {
    long hash = 1125899906842597L;
    for (char c : email.toLowerCase(Locale.ROOT).toCharArray()) {
      hash = 31 * hash + c;
    }
    return Long.toUnsignedString(hash & Long.MAX_VALUE);
  }

  /** A path or a URL of this server ({@code host}): never a redirect elsewhere. */
  static String safeContinue(String value, String host) {
    if (value == null || value.chars().anyMatch(c -> c < ' ' || c == '\\')) {
      return "/";
    }
    if (value.startsWith("/") && !value.startsWith("//")) {
      return value;
    }
    try {
      java.net.URI uri = new java.net.URI(value);
      boolean web =
          "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
      return web && host != null && host.equalsIgnoreCase(uri.getHost()) ? value : "/";
    } catch (java.net.URISyntaxException e) {
      return "/";
    }
  }

  private static HttpCookie cookie(String value, long maxAge) {
    return HttpCookie.build(COOKIE, value).path("/").httpOnly(true).maxAge(maxAge).build();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static void page(Response response, Callback callback, String back, String problem) {
    String html =
        "<!DOCTYPE html>\n<html><head><title>Development login</title></head><body>\n"
            + "<h1>Development login</h1>\n"
            + (problem == null ? "" : "<p>" + escape(problem) + "</p>\n")
            + "<p>Not a real sign-in: this page exists only with --development.</p>\n"
            + "<form method=\"get\" action=\""
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
