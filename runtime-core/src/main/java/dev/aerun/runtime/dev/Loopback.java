package dev.aerun.runtime.dev;

import dev.aerun.runtime.contract.IpLiterals;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.eclipse.jetty.server.Request;

/** Whether a request comes from this machine: development details are shown to no one else. */
public final class Loopback {
  private Loopback() {}

  /**
   * True if the client the app sees (after the trust policy, so a header from an untrusted peer
   * cannot fake it) is at a loopback IP address. A peer on a Unix-domain socket is not: whoever may
   * write to the socket file (a sidecar, another container sharing the volume) is no developer.
   */
  public static boolean isLoopbackClient(Request request) {
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    if (!(remote instanceof InetSocketAddress inet)) {
      return false;
    }
    InetAddress address = inet.getAddress();
    return address != null && address.isLoopbackAddress();
  }

  /** True if {@code address} is an IP literal of a loopback address. */
  public static boolean isLoopbackAddress(String address) {
    InetAddress parsed = IpLiterals.parse(address);
    return parsed != null && parsed.isLoopbackAddress();
  }
}
