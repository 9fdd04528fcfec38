package dev.aerun.runtime.contract;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Reads the client's address and scheme from the forwarding headers of a peer trusted to send them
 * (docs/REQUESTS.md, "Forwarding headers").
 *
 * <ul>
 *   <li>{@code X-Forwarded-For} and {@code X-Forwarded-Proto} when the request has either; else
 *       {@code Forwarded} (RFC 7239). Most proxies (Google's load balancers, nginx, Envoy) maintain
 *       the former and pass a client's {@code Forwarded} on untouched, so it is read only when they
 *       are absent. Repeated fields count as one comma-separated list, in order.
 *   <li>The client is the right-most hop that is not itself a proxy ({@code isProxy}): each proxy
 *       appends the address it received the request from, so every hop left of the first unknown
 *       one was written by whoever the runtime cannot vouch for. When every hop is a proxy, the
 *       left-most is the client.
 *   <li>The scheme: the {@code proto} of that same {@code Forwarded} element; for {@code
 *       X-Forwarded-Proto}, its value at the client's position when it has one value per {@code
 *       X-Forwarded-For} hop, else its right-most value (the nearest proxy's). Only {@code https}
 *       changes anything (the request becomes secure); {@code http} leaves the connection's scheme.
 *   <li>Malformed values change nothing: a hop that is not an IP address (with an optional port)
 *       leaves the address as the TCP peer's, a scheme other than {@code http}/{@code https} leaves
 *       the scheme, and a {@code Forwarded} field that does not parse is ignored whole.
 * </ul>
 *
 * <p>Not Jetty's {@code ForwardedRequestCustomizer}: that one trusts every peer alike, takes the
 * left-most (client-written) {@code X-Forwarded-For} hop, and replaces the connection's peer before
 * the request contract could check who sent the headers.
 */
final class ForwardedHeaders {
  private ForwardedHeaders() {}

  /**
   * What the headers say: the client's address (null when they name none usable) and whether the
   * client used {@code https}.
   */
  record Forwarding(InetSocketAddress client, boolean https) {
    static final Forwarding NONE = new Forwarding(null, false);
  }

  /**
   * Resolves the forwarding headers of one request.
   *
   * @param forwardedFor the {@code X-Forwarded-For} values joined by commas, or null
   * @param forwardedProto the {@code X-Forwarded-Proto} values joined by commas, or null
   * @param forwarded the {@code Forwarded} values joined by commas, or null
   * @param isProxy whether an address is a trusted proxy's own, to be skipped
   */
  static Forwarding resolve(
      String forwardedFor,
      String forwardedProto,
      String forwarded,
      Predicate<InetAddress> isProxy) {
    if (forwardedFor != null || forwardedProto != null) {
      return fromXForwarded(forwardedFor, forwardedProto, isProxy);
    }
    if (forwarded != null) {
      return fromForwarded(forwarded, isProxy);
    }
    return Forwarding.NONE;
  }

  private static Forwarding fromXForwarded(
      String forwardedFor, String forwardedProto, Predicate<InetAddress> isProxy) {
    InetSocketAddress client = null;
    int clientIndex = -1;
    int hops = 0;
    if (forwardedFor != null) {
      String[] entries = forwardedFor.split(",", -1);
      hops = entries.length;
      clientIndex = hops - 1;
      for (; clientIndex >= 0; clientIndex--) {
        client = node(entries[clientIndex].trim());
        if (client == null || clientIndex == 0 || !isProxy.test(client.getAddress())) {
          break;
        }
      }
    }
    boolean https = false;
    if (forwardedProto != null) {
      String[] protos = forwardedProto.split(",", -1);
      String proto =
          protos.length == hops && clientIndex >= 0
              ? protos[clientIndex]
              : protos[protos.length - 1];
      https = isHttps(proto);
    }
    return new Forwarding(client, https);
  }

  private static Forwarding fromForwarded(String forwarded, Predicate<InetAddress> isProxy) {
    List<Element> elements = parseForwarded(forwarded);
    if (elements == null || elements.isEmpty()) {
      return Forwarding.NONE;
    }
    for (int i = elements.size() - 1; i >= 0; i--) {
      Element element = elements.get(i);
      InetSocketAddress client = element.forNode == null ? null : node(element.forNode);
      if (client == null || i == 0 || !isProxy.test(client.getAddress())) {
        return new Forwarding(client, isHttps(element.proto));
      }
    }
    return Forwarding.NONE; // not reached: the loop returns at i == 0
  }

  private static boolean isHttps(String proto) {
    return proto != null && proto.trim().equalsIgnoreCase("https");
  }

  /**
   * A hop as written: an IPv4 address, an IPv6 address bare or in brackets, either with a port
   * ({@code 192.0.2.1:443}, {@code [2001:db8::1]:443}); null for anything else ({@code unknown}, an
   * obfuscated {@code _name}, a host name, garbage). Port 0 when none is given.
   */
  static InetSocketAddress node(String text) {
    if (text.isEmpty()) {
      return null;
    }
    String host = text;
    String port = null;
    if (text.charAt(0) == '[') {
      int close = text.indexOf(']');
      if (close < 0) {
        return null;
      }
      host = text.substring(0, close + 1);
      String rest = text.substring(close + 1);
      if (!rest.isEmpty()) {
        if (rest.charAt(0) != ':') {
          return null;
        }
        port = rest.substring(1);
      }
    } else {
      int colon = text.indexOf(':');
      if (colon >= 0 && colon == text.lastIndexOf(':')) {
        host = text.substring(0, colon);
        port = text.substring(colon + 1);
      }
    }
    InetAddress address = IpLiterals.parse(host);
    if (address == null) {
      return null;
    }
    int portNumber = 0;
    if (port != null) {
      if (port.isEmpty()
          || port.length() > 5
          || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return null;
      }
      portNumber = Integer.parseInt(port);
      if (portNumber > 65535) {
        return null;
      }
    }
    return new InetSocketAddress(address, portNumber);
  }

  /** One {@code Forwarded} element: its {@code for} and {@code proto} values, unquoted, or null. */
  private record Element(String forNode, String proto) {}

  /**
   * The elements of a {@code Forwarded} field value (RFC 7239: elements separated by commas, pairs
   * by semicolons, each {@code name=token} or {@code name="quoted string"}); null when it does not
   * parse.
   */
  private static List<Element> parseForwarded(String value) {
    List<Element> elements = new ArrayList<>();
    String forNode = null;
    String proto = null;
    int i = 0;
    int n = value.length();
    boolean pairsInElement = false;
    while (true) {
      // A pair, or nothing before the next separator (an empty element or pair).
      while (i < n && isWhitespace(value.charAt(i))) {
        i++;
      }
      int nameStart = i;
      while (i < n && value.charAt(i) != '=' && value.charAt(i) != ',' && value.charAt(i) != ';') {
        i++;
      }
      String name = value.substring(nameStart, i).trim();
      if (i < n && value.charAt(i) == '=') {
        if (name.isEmpty()) {
          return null;
        }
        i++;
        String pairValue;
        if (i < n && value.charAt(i) == '"') {
          StringBuilder quoted = new StringBuilder();
          i++;
          boolean closed = false;
          while (i < n) {
            char c = value.charAt(i++);
            if (c == '\\' && i < n) {
              quoted.append(value.charAt(i++));
            } else if (c == '"') {
              closed = true;
              break;
            } else {
              quoted.append(c);
            }
          }
          if (!closed) {
            return null;
          }
          pairValue = quoted.toString();
          while (i < n && isWhitespace(value.charAt(i))) {
            i++;
          }
        } else {
          int valueStart = i;
          while (i < n && value.charAt(i) != ',' && value.charAt(i) != ';') {
            i++;
          }
          pairValue = value.substring(valueStart, i).trim();
          if (pairValue.isEmpty() || !isToken(pairValue)) {
            return null;
          }
        }
        switch (name.toLowerCase(Locale.ROOT)) {
          case "for" -> forNode = forNode == null ? pairValue : forNode;
          case "proto" -> proto = proto == null ? pairValue : proto;
          default -> {}
        }
        pairsInElement = true;
      } else if (!name.isEmpty()) {
        return null; // a pair without '='
      }
      if (i >= n || value.charAt(i) == ',') {
        if (pairsInElement) {
          elements.add(new Element(forNode, proto));
        }
        forNode = null;
        proto = null;
        pairsInElement = false;
        if (i >= n) {
          return elements;
        }
      } else if (value.charAt(i) != ';') {
        return null;
      }
      i++;
    }
  }

  /**
   * Whether {@code s} holds only token characters (RFC 9110: no spaces, quotes or delimiters): an
   * IPv6 address or a port must be quoted (RFC 7239).
   */
  private static boolean isToken(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c <= ' ' || c >= 0x7f || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t';
  }
}
