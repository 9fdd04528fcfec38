package dev.aerun.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aerun.testing.RawHttp;
import dev.aerun.testing.RawResponse;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Optional;

/**
 * A client at a chosen address of this machine, naming a chosen host: a request from this machine's
 * own network address (not loopback) is, to the runtime, a request from another machine, over real
 * sockets, with no network set-up. The runtime must listen on every address ({@code --address
 * 0.0.0.0}) for such a client to reach it.
 *
 * @param address the client's address; the request goes to the same address
 */
record ClientAt(InetAddress address) {
  /** A loopback client (127.0.0.1). */
  static ClientAt loopback() {
    return new ClientAt(InetAddress.getLoopbackAddress());
  }

  /**
   * A client at this machine's first non-loopback IPv4 address; the test is skipped (with the
   * reason) on a machine that has none.
   */
  static ClientAt remote() {
    Optional<InetAddress> address = nonLoopbackAddress();
    assumeTrue(address.isPresent(), "this machine has no non-loopback IPv4 address to test from");
    return new ClientAt(address.get());
  }

  private static Optional<InetAddress> nonLoopbackAddress() {
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback()) {
          continue;
        }
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
            return Optional.of(address);
          }
        }
      }
    } catch (SocketException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** {@code GET target}, naming {@code host} ({@code Host} header), with {@code headers}. */
  RawResponse get(int port, String host, String target, String... headers) throws IOException {
    return send(port, "GET", host, target, null, headers);
  }

  /**
   * {@code method target} on a fresh connection, naming {@code host}, with {@code headers} and, if
   * not null, {@code body} (its {@code Content-Length} added).
   */
  RawResponse send(
      int port, String method, String host, String target, String body, String... headers)
      throws IOException {
    StringBuilder request = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
    request.append("Host: ").append(host).append("\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    if (body != null) {
      request.append("Content-Length: ").append(content.length).append("\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    try (RawHttp connection = RawHttp.connect(address, port, Duration.ofSeconds(30))) {
      connection.write(request.toString()).write(content);
      return connection.readResponse(method.equals("HEAD")).requireStatus();
    }
  }

  @Override
  public String toString() {
    return "client at " + address.getHostAddress();
  }
}
