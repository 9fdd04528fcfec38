package dev.aerun.runtime.contract;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Parses IP address literals without ever asking DNS. */
public final class IpLiterals {
  private IpLiterals() {}

  /**
   * Returns the address written in {@code text} (dotted-quad IPv4, or IPv6 with optional brackets),
   * or null if {@code text} is not such a literal. Host names are never resolved.
   */
  public static InetAddress parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    if (text.indexOf(':') < 0) {
      return parseIpv4(text);
    }
    String s = text;
    if (s.length() > 2 && s.charAt(0) == '[' && s.charAt(s.length() - 1) == ']') {
      s = s.substring(1, s.length() - 1);
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = c == ':' || c == '.' || Character.digit(c, 16) >= 0;
      if (!ok) {
        return null; // also rejects zone ids (%eth0): a peer address never needs one here
      }
    }
    try {
      // A string with ':' is always parsed as an IPv6 literal, never looked up.
      return InetAddress.getByName(s);
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static InetAddress parseIpv4(String s) {
    byte[] bytes = new byte[4];
    int part = 0;
    int value = 0;
    int digits = 0;
    for (int i = 0; i <= s.length(); i++) {
      char c = i == s.length() ? '.' : s.charAt(i);
      if (c == '.') {
        if (digits == 0 || part == 4) {
          return null;
        }
        bytes[part++] = (byte) value;
        value = 0;
        digits = 0;
      } else if (c >= '0' && c <= '9' && digits < 3) {
        value = value * 10 + (c - '0');
        digits++;
        if (value > 255) {
          return null;
        }
      } else {
        return null;
      }
    }
    if (part != 4) {
      return null;
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new AssertionError(e); // four bytes are always a valid IPv4 address
    }
  }
}
