package dev.aerun.apihost;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Lets through only the runtime that started this host: a request must carry the per-run secret in
 * {@link #SECRET_HEADER} and name a loopback {@code Host} (so a web page in the developer's browser
 * cannot reach the host through DNS rebinding); anything else gets 403 with no body worth reading.
 */
final class GuardHandler extends Handler.Wrapper {
  /** The header the runtime sends the secret in. */
  static final String SECRET_HEADER = "X-Aerun-Api-Secret";

  private final byte[] secret;

  GuardHandler(String secret, Handler next) {
    super(next);
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String given = request.getHeaders().get(SECRET_HEADER);
    boolean secretMatches =
        given != null && MessageDigest.isEqual(secret, given.getBytes(StandardCharsets.UTF_8));
    if (!secretMatches || !isLoopbackHost(request.getHeaders().get(HttpHeader.HOST))) {
      Response.writeError(request, response, callback, HttpStatus.FORBIDDEN_403, "Forbidden");
      return true;
    }
    return super.handle(request, response, callback);
  }

  /** Whether a {@code Host} value names this machine's loopback: localhost, 127/8 or ::1. */
  static boolean isLoopbackHost(String host) {
    if (host == null) {
      return false;
    }
    String name = host.trim().toLowerCase(Locale.ROOT);
    if (name.startsWith("[")) {
      int close = name.indexOf(']');
      return close > 0
          && name.substring(1, close).equals("::1")
          && (close == name.length() - 1 || name.charAt(close + 1) == ':');
    }
    int colon = name.indexOf(':');
    if (colon >= 0) {
      name = name.substring(0, colon);
    }
    if (name.equals("localhost")) {
      return true;
    }
    String[] parts = name.split("\\.", -1);
    if (parts.length != 4 || !parts[0].equals("127")) {
      return false;
    }
    for (String part : parts) {
      if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
        return false;
      }
      if (Integer.parseInt(part) > 255) {
        return false;
      }
    }
    return true;
  }
}
