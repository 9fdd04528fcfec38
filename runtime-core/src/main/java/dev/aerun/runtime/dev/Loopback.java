package dev.aerun.runtime.dev;

import dev.aerun.runtime.contract.IpLiterals;
import java.net.InetAddress;
import org.eclipse.jetty.server.Request;

/** Whether a request comes from this machine: development details are shown to no one else. */
public final class Loopback {
  private Loopback() {}

  /**
   * True if the client address the app sees (after the trust policy, so a header from an untrusted
   * peer cannot fake it) is a loopback address.
   */
  public static boolean isLoopbackClient(Request request) {
    return isLoopbackAddress(Request.getRemoteAddr(request));
  }

  /** True if {@code address} is an IP literal of a loopback address. */
  public static boolean isLoopbackAddress(String address) {
    InetAddress parsed = IpLiterals.parse(address);
    return parsed != null && parsed.isLoopbackAddress();
  }
}
