package dev.aerun.runtime.dev;

import dev.aerun.runtime.contract.IpLiterals;
import java.net.InetAddress;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The host names a development runtime takes for the developer's own machine: {@code localhost},
 * {@code 127.x.y.z}, {@code [::1]}, and the names given with {@code --dev-hosts}. A request that
 * names any other host (its {@code Host} header, or the authority of its target) is not the
 * developer's, even from a loopback peer: a web page that rebinds its own name to 127.0.0.1 (DNS
 * rebinding) makes the developer's browser send such requests with the page's name.
 *
 * <p>Immutable. {@link #test} takes a host as Jetty parses it: without the port, an IPv6 literal in
 * brackets or not.
 */
public final class DevelopmentHosts implements Predicate<String> {
  private static final DevelopmentHosts LOOPBACK = new DevelopmentHosts(Set.of());

  private final Set<String> extra;

  private DevelopmentHosts(Set<String> extra) {
    this.extra = extra;
  }

  /** Only the loopback names. */
  public static DevelopmentHosts loopback() {
    return LOOPBACK;
  }

  /**
   * The loopback names and {@code names} (host names or IP literals, matched ignoring case).
   *
   * @throws IllegalArgumentException naming the first entry that is not a host name or an IP
   *     literal
   */
  public static DevelopmentHosts withNames(Collection<String> names) {
    Set<String> checked = new TreeSet<>();
    for (String name : names) {
      checked.add(normalize(name));
    }
    return checked.isEmpty() ? LOOPBACK : new DevelopmentHosts(Set.copyOf(checked));
  }

  /** The extra names, sorted, lower case. */
  public Set<String> names() {
    return new TreeSet<>(extra);
  }

  /** Whether {@code host} (no port) is a loopback name or one of the extra names. */
  @Override
  public boolean test(String host) {
    if (host == null || host.isEmpty()) {
      return false;
    }
    String name = host.toLowerCase(Locale.ROOT);
    if (name.indexOf(':') >= 0 && !name.startsWith("[")) {
      name = "[" + name + "]";
    }
    if (name.equals("localhost") || extra.contains(name)) {
      return true;
    }
    InetAddress address = IpLiterals.parse(name);
    return address != null && address.isLoopbackAddress();
  }

  /** {@code name} checked and in the form {@link #test} compares: lower case, IPv6 in brackets. */
  private static String normalize(String name) {
    String trimmed = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    if (IpLiterals.parse(trimmed) != null) {
      return trimmed.indexOf(':') >= 0 && !trimmed.startsWith("[") ? "[" + trimmed + "]" : trimmed;
    }
    boolean hostName =
        !trimmed.isEmpty()
            && trimmed.length() <= 253
            && !trimmed.startsWith(".")
            && !trimmed.startsWith("-")
            && trimmed.chars().allMatch(DevelopmentHosts::isNameChar);
    if (!hostName) {
      throw new IllegalArgumentException(
          "'" + name + "' is not a host name or an IP address (letters, digits, '.' and '-')");
    }
    return trimmed;
  }

  private static boolean isNameChar(int c) {
    return c == '.' || c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  @Override
  public String toString() {
    return extra.isEmpty()
        ? "localhost, 127.0.0.0/8, [::1]"
        : "localhost, 127.0.0.0/8, [::1], " + String.join(", ", names());
  }
}
