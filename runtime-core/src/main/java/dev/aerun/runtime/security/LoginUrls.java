package dev.aerun.runtime.security;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where a user signs in and out. Each is a template: {@value #PLACEHOLDER} is replaced by the URL
 * the user goes back to afterwards, URL-encoded; a template without it gets a {@code continue}
 * query parameter appended.
 *
 * @param login where an anonymous request to a protected path is redirected
 * @param logout what the App Engine Users API's {@code createLogoutURL} answers
 */
public record LoginUrls(String login, String logout) {
  /** Replaced by the encoded URL to go back to. */
  public static final String PLACEHOLDER = "{continue}";

  /** The development login page's path; in production the front end or the configured URL. */
  public static final String DEFAULT_LOGIN = "/_ah/login?continue=" + PLACEHOLDER;

  /** The development logout path. */
  public static final String DEFAULT_LOGOUT = "/_ah/logout?continue=" + PLACEHOLDER;

  public LoginUrls {
    Objects.requireNonNull(login, "login");
    Objects.requireNonNull(logout, "logout");
    requireUrl(login, "login URL");
    requireUrl(logout, "logout URL");
  }

  /** The platform's defaults: {@value #DEFAULT_LOGIN} and {@value #DEFAULT_LOGOUT}. */
  public static LoginUrls defaults() {
    return new LoginUrls(DEFAULT_LOGIN, DEFAULT_LOGOUT);
  }

  /** The login URL that sends the user back to {@code continueUrl}. */
  public String loginUrl(String continueUrl) {
    return expand(login, continueUrl);
  }

  /** The logout URL that sends the user back to {@code continueUrl}. */
  public String logoutUrl(String continueUrl) {
    return expand(logout, continueUrl);
  }

  private static String expand(String template, String continueUrl) {
    String encoded = URLEncoder.encode(continueUrl, StandardCharsets.UTF_8);
    if (template.contains(PLACEHOLDER)) {
      return template.replace(PLACEHOLDER, encoded);
    }
    return template + (template.indexOf('?') < 0 ? '?' : '&') + "continue=" + encoded;
  }

  /** A path or an http(s) URL, without characters that would split a header. */
  private static void requireUrl(String template, String what) {
    boolean shaped =
        template.startsWith("/")
            || template.startsWith("https://")
            || template.startsWith("http://");
    if (!shaped || template.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
      throw new IllegalArgumentException(
          what
              + " must be a path or an http(s) URL without spaces or control characters, got '"
              + template
              + "'");
    }
  }
}
