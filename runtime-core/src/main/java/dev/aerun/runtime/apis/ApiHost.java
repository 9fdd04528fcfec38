package dev.aerun.runtime.apis;

import java.util.Objects;

/**
 * Where an app's remote {@code ApiProxy} calls go: an API host at {@code host:port}, spoken to over
 * HTTP ({@code POST /rpc_http}).
 *
 * @param host a host name or IP literal (an IPv6 literal without brackets)
 * @param port the host's port
 * @param secret a value sent with every call in {@link #SECRET_HEADER} (the local API host of
 *     development refuses calls without it); null for a platform's API host
 * @param source how the host was chosen, for logs and error messages (e.g. {@code API_HOST and
 *     API_PORT})
 */
public record ApiHost(String host, int port, String secret, String source) {
  /** The header that carries {@link #secret()}. */
  public static final String SECRET_HEADER = "X-Aerun-Api-Secret";

  /** App Engine standard's API host, where {@code API_HOST} and {@code API_PORT} are not set. */
  public static final String PLATFORM_HOST = "appengine.googleapis.internal";

  /** App Engine standard's API host port. */
  public static final int PLATFORM_PORT = 10001;

  public ApiHost {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(source, "source");
    if (host.isEmpty()) {
      throw new IllegalArgumentException("the API host's name is empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("the API host's port must be 1-65535, not " + port);
    }
  }

  /** {@code host:port}, an IPv6 literal in brackets. */
  public String authority() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }

  /**
   * {@code HOST:PORT} (an IPv6 literal in brackets) as an API host.
   *
   * @throws IllegalArgumentException naming what is wrong with {@code value}
   */
  public static ApiHost parse(String value, String source) {
    String v = value.trim();
    int colon = v.lastIndexOf(':');
    if (colon <= 0 || colon == v.length() - 1) {
      throw new IllegalArgumentException("must be HOST:PORT, not '" + value + "'");
    }
    String host = v.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return new ApiHost(host, port(v.substring(colon + 1), value), null, source);
  }

  /** A port number from text, or an {@link IllegalArgumentException} naming {@code whole}. */
  public static int port(String text, String whole) {
    try {
      int port = Integer.parseInt(text.trim());
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("needs a port number 1-65535, not '" + whole + "'");
  }

  /** This host with {@code newSecret} sent with every call. */
  public ApiHost withSecret(String newSecret) {
    return new ApiHost(host, port, newSecret, source);
  }

  @Override
  public String toString() {
    return authority() + " (" + source + ")"; // never the secret
  }
}
