package dev.aerun.runtime.server;

import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.load.Capacity;
import java.time.Duration;
import java.util.Objects;

/**
 * What every server facing clients is given (HttpConnector mode's server, legacy mode's front
 * server): where to listen, whom to trust, the limits, and the capacity. Immutable; the {@code
 * with} methods return a changed copy.
 *
 * @param host the address to bind, or null for all interfaces
 * @param port the TCP port to bind; 0 picks a free one; -1 for none (then {@code unixSocket} is the
 *     only listener)
 * @param contract trust policy and header visibility
 * @param limits body and header size limits
 * @param idleTimeout how long an idle connection stays open
 * @param capacity how many requests run at once and wait, and on which threads
 * @param requestLog whether the server logs a line per request ({@code AccessLog}); when false no
 *     request log is installed at all, so it costs nothing per request
 * @param protocols compression, and what else the server speaks beside HTTP/1.1
 * @param unixSocket a Unix-domain socket to listen on too, or null for none
 */
public record PublicServerSpec(
    String host,
    int port,
    ContractOptions contract,
    RequestLimits limits,
    Duration idleTimeout,
    Capacity capacity,
    boolean requestLog,
    Protocols protocols,
    UnixSocket unixSocket) {
  /** The {@code port} of a server with no TCP port, only its {@code unixSocket}. */
  public static final int NO_PORT = -1;

  public PublicServerSpec {
    Objects.requireNonNull(protocols, "protocols");
    if (port == NO_PORT && unixSocket == null) {
      throw new IllegalArgumentException("no TCP port and no Unix-domain socket: nothing to serve");
    }
    Objects.requireNonNull(contract, "contract");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    Objects.requireNonNull(capacity, "capacity");
    if (port < NO_PORT || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
  }

  /** With the default {@link Protocols}. */
  public PublicServerSpec(
      String host,
      int port,
      ContractOptions contract,
      RequestLimits limits,
      Duration idleTimeout,
      Capacity capacity,
      boolean requestLog) {
    this(
        host,
        port,
        contract,
        limits,
        idleTimeout,
        capacity,
        requestLog,
        Protocols.defaults(),
        null);
  }

  /** With the request log on and the default {@link Protocols}. */
  public PublicServerSpec(
      String host,
      int port,
      ContractOptions contract,
      RequestLimits limits,
      Duration idleTimeout,
      Capacity capacity) {
    this(host, port, contract, limits, idleTimeout, capacity, true);
  }

  /** The heap {@link #defaults()} sizes its capacity for. */
  public static final long DEFAULT_HEAP_BYTES = 1L << 30;

  /**
   * The defaults: all interfaces, port 8080, trust nobody, the platform's limits, a 30 s idle
   * timeout, the capacity of a 1 GiB heap ({@link Capacity#forHeap}; the launcher sizes it for the
   * JVM's), the request log on, the default {@link Protocols}.
   */
  public static PublicServerSpec defaults() {
    return new PublicServerSpec(
        null,
        8080,
        ContractOptions.defaults(),
        RequestLimits.defaults(),
        Duration.ofSeconds(30),
        Capacity.forHeap(DEFAULT_HEAP_BYTES));
  }

  public PublicServerSpec withHost(String newHost) {
    return new PublicServerSpec(
        newHost, port, contract, limits, idleTimeout, capacity, requestLog, protocols, unixSocket);
  }

  public PublicServerSpec withPort(int newPort) {
    return new PublicServerSpec(
        host, newPort, contract, limits, idleTimeout, capacity, requestLog, protocols, unixSocket);
  }

  public PublicServerSpec withContract(ContractOptions newContract) {
    return new PublicServerSpec(
        host, port, newContract, limits, idleTimeout, capacity, requestLog, protocols, unixSocket);
  }

  public PublicServerSpec withLimits(RequestLimits newLimits) {
    return new PublicServerSpec(
        host, port, contract, newLimits, idleTimeout, capacity, requestLog, protocols, unixSocket);
  }

  public PublicServerSpec withIdleTimeout(Duration newIdleTimeout) {
    return new PublicServerSpec(
        host, port, contract, limits, newIdleTimeout, capacity, requestLog, protocols, unixSocket);
  }

  public PublicServerSpec withCapacity(Capacity newCapacity) {
    return new PublicServerSpec(
        host, port, contract, limits, idleTimeout, newCapacity, requestLog, protocols, unixSocket);
  }

  public PublicServerSpec withRequestLog(boolean on) {
    return new PublicServerSpec(
        host, port, contract, limits, idleTimeout, capacity, on, protocols, unixSocket);
  }

  public PublicServerSpec withProtocols(Protocols newProtocols) {
    return new PublicServerSpec(
        host, port, contract, limits, idleTimeout, capacity, requestLog, newProtocols, unixSocket);
  }

  public PublicServerSpec withUnixSocket(UnixSocket newUnixSocket) {
    return new PublicServerSpec(
        host, port, contract, limits, idleTimeout, capacity, requestLog, protocols, newUnixSocket);
  }
}
