package dev.aerun.runtime.contract;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Which TCP peers are trusted to send platform headers ({@code X-AppEngine-*}, {@code
 * X-Google-Internal-*}, {@code Forwarded}, {@code X-Forwarded-*}), or, as {@link
 * ContractOptions#forwardedFrom()}, only the forwarding headers.
 *
 * <p>Immutable and thread-safe. On the managed platform the front end is the only peer, so {@link
 * #trustAll()} fits; anywhere else the default is {@link #trustNone()}, or an explicit list of
 * proxy addresses via {@link #parse(String)}. A development runtime trusts loopback peers only for
 * requests that name a loopback host ({@link #forHosts}), so that a page elsewhere whose name was
 * rebound to 127.0.0.1 cannot have the developer's browser forge headers.
 */
public final class TrustPolicy {
  private static final TrustPolicy ALL = new TrustPolicy(true, List.of(), "all");
  private static final TrustPolicy NONE = new TrustPolicy(false, List.of(), "none");

  private final boolean all;
  private final boolean unixPeers;
  private final List<Block> blocks;
  private final String description;

  /** The hosts a request must name for its peer to be trusted; null for any. */
  private final Predicate<String> hosts;

  private TrustPolicy(boolean all, List<Block> blocks, String description) {
    this(all, false, blocks, description, null);
  }

  private TrustPolicy(
      boolean all,
      boolean unixPeers,
      List<Block> blocks,
      String description,
      Predicate<String> hosts) {
    this.all = all;
    this.unixPeers = unixPeers;
    this.blocks = blocks;
    this.description = description;
    this.hosts = hosts;
  }

  /**
   * This policy, with its peers trusted only for requests whose host (the {@code Host} header, or
   * the authority of the target, without the port) {@code hosts} accepts.
   */
  public TrustPolicy forHosts(Predicate<String> hosts) {
    Objects.requireNonNull(hosts, "hosts");
    return new TrustPolicy(all, unixPeers, blocks, description + " naming " + hosts, hosts);
  }

  /** Whether {@link #isTrusted(InetAddress, String)} looks at the request's host at all. */
  public boolean checksHost() {
    return hosts != null;
  }

  /** Trusts every peer: only correct where the platform front end is the only possible peer. */
  public static TrustPolicy trustAll() {
    return ALL;
  }

  /** Trusts no peer: every platform header is removed. The default off the managed platform. */
  public static TrustPolicy trustNone() {
    return NONE;
  }

  /**
   * Parses a comma-separated list of IP addresses and CIDR blocks, IPv4 or IPv6, for example {@code
   * "127.0.0.1,10.0.0.0/8,::1,fd00::/8"}, and {@code unix} for every peer on the public server's
   * Unix-domain socket (which has no address). Spaces around entries are ignored; a blank string
   * means {@link #trustNone()}. Host names are not accepted (no DNS lookups).
   *
   * @throws IllegalArgumentException naming the bad entry if any entry is not an address or block
   */
  public static TrustPolicy parse(String list) {
    return parse(list, false);
  }

  /**
   * As {@link #parse(String)}, where the entry {@code all} also trusts every peer, TCP or Unix: for
   * the forwarding headers of a front end that is the only way to the runtime's port (Cloud Run).
   * The addresses listed beside {@code all} still count as proxies in a chain of hops ({@link
   * #isProxyAddress}).
   */
  public static TrustPolicy parseForwarders(String list) {
    return parse(list, true);
  }

  private static TrustPolicy parse(String list, boolean allowAll) {
    if (list == null || list.isBlank()) {
      return NONE;
    }
    List<Block> blocks = new ArrayList<>();
    boolean unix = false;
    boolean all = false;
    for (String raw : list.split(",", -1)) {
      String entry = raw.trim();
      if (entry.isEmpty()) {
        throw new IllegalArgumentException("Empty entry in trusted address list '" + list + "'");
      }
      if (entry.equalsIgnoreCase("unix")) {
        unix = true;
      } else if (allowAll && entry.equalsIgnoreCase("all")) {
        all = true;
      } else {
        blocks.add(Block.parse(entry));
      }
    }
    return new TrustPolicy(all, unix, List.copyOf(blocks), list.strip(), null);
  }

  /**
   * Whether a request from a peer at {@code address} naming {@code host} is trusted: the peer must
   * be, and so must the host if the policy checks hosts ({@link #forHosts}).
   */
  public boolean isTrusted(InetAddress address, String host) {
    return isTrusted(address) && (hosts == null || (host != null && hosts.test(host)));
  }

  /**
   * Whether a request from a peer on a Unix-domain socket naming {@code host} is trusted: only when
   * the policy trusts all, or names {@code unix}.
   */
  public boolean isTrustedUnixPeer(String host) {
    return (all || unixPeers) && (hosts == null || (host != null && hosts.test(host)));
  }

  /**
   * Whether a peer at {@code address} may be trusted, whatever host its requests name; null is
   * never trusted unless trusting all.
   */
  public boolean isTrusted(InetAddress address) {
    if (all) {
      return true;
    }
    return isProxyAddress(address);
  }

  /**
   * Whether {@code address} is one of the listed addresses or blocks: a proxy's own address, which
   * a chain of forwarding hops skips to find the client. {@code all} lists no address (behind a
   * front end trusted as the only peer, the address it names is the client's), and the hosts a
   * request names do not matter here.
   */
  public boolean isProxyAddress(InetAddress address) {
    if (address == null) {
      return false;
    }
    byte[] bytes = address.getAddress();
    for (Block block : blocks) {
      if (block.contains(bytes)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "TrustPolicy[" + description + "]";
  }

  /** An address block: network bytes and prefix length. */
  private record Block(byte[] network, int prefixBits) {
    static Block parse(String entry) {
      int slash = entry.indexOf('/');
      String addressText = slash < 0 ? entry : entry.substring(0, slash);
      InetAddress address = IpLiterals.parse(addressText);
      if (address == null) {
        throw new IllegalArgumentException(
            "Not an IP address or CIDR block: '" + entry + "' (host names are not accepted)");
      }
      byte[] network = address.getAddress();
      int maxBits = network.length * 8;
      int prefix = maxBits;
      if (slash >= 0) {
        String prefixText = entry.substring(slash + 1);
        try {
          prefix = Integer.parseInt(prefixText);
        } catch (NumberFormatException e) {
          prefix = -1;
        }
        if (prefix < 0 || prefix > maxBits || !prefixText.chars().allMatch(Character::isDigit)) {
          throw new IllegalArgumentException(
              "Bad prefix length in '" + entry + "': must be 0 to " + maxBits);
        }
      }
      mask(network, prefix);
      return new Block(network, prefix);
    }

    boolean contains(byte[] candidate) {
      if (candidate.length != network.length) {
        return false;
      }
      for (int i = 0; i < candidate.length; i++) {
        if ((candidate[i] & maskByte(i, prefixBits)) != (network[i] & 0xFF)) {
          return false;
        }
      }
      return true;
    }

    private static void mask(byte[] bytes, int prefixBits) {
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] &= (byte) maskByte(i, prefixBits);
      }
    }

    /** The mask of byte {@code index} for a prefix of {@code prefixBits}, as 0..255. */
    private static int maskByte(int index, int prefixBits) {
      int bitsInByte = Math.max(0, Math.min(8, prefixBits - index * 8));
      return (0xFF << (8 - bitsInByte)) & 0xFF;
    }
  }
}
