package dev.aerun.runtime.contract;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TrustPolicyTest {

  @Test
  void unixEntry_trustsUnixDomainPeersOnly() {
    TrustPolicy policy = TrustPolicy.parse("unix, 10.0.0.0/8");
    assertTrue(policy.isTrustedUnixPeer(null));
    assertTrue(policy.isTrusted(ip("10.1.2.3")));
    assertFalse(policy.isTrusted(ip("127.0.0.1")));
    assertFalse(TrustPolicy.parse("127.0.0.1,::1").isTrustedUnixPeer("localhost"));
    assertFalse(TrustPolicy.trustNone().isTrustedUnixPeer(null));
    assertTrue(TrustPolicy.trustAll().isTrustedUnixPeer(null));
  }

  @Test
  void trustAll_trustsAnyPeerIncludingUnknown() {
    assertTrue(TrustPolicy.trustAll().isTrusted(ip("203.0.113.7")));
    assertTrue(TrustPolicy.trustAll().isTrusted(null));
  }

  @Test
  void trustNone_trustsNoPeer() {
    assertFalse(TrustPolicy.trustNone().isTrusted(ip("127.0.0.1")));
    assertFalse(TrustPolicy.trustNone().isTrusted(null));
  }

  @Test
  void parse_singleIpv4MatchesOnlyThatAddress() {
    TrustPolicy policy = TrustPolicy.parse("127.0.0.1");
    assertTrue(policy.isTrusted(ip("127.0.0.1")));
    assertFalse(policy.isTrusted(ip("127.0.0.2")));
  }

  @Test
  void parse_ipv4CidrMatchesWholeBlockOnly() {
    TrustPolicy policy = TrustPolicy.parse("10.0.0.0/8");
    assertTrue(policy.isTrusted(ip("10.0.0.0")));
    assertTrue(policy.isTrusted(ip("10.255.1.2")));
    assertFalse(policy.isTrusted(ip("11.0.0.1")));
  }

  @Test
  void parse_oddPrefixMatchesAtBitGranularity() {
    TrustPolicy policy = TrustPolicy.parse("192.168.4.0/22");
    assertTrue(policy.isTrusted(ip("192.168.7.255")));
    assertFalse(policy.isTrusted(ip("192.168.8.0")));
    assertFalse(policy.isTrusted(ip("192.168.3.255")));
  }

  @Test
  void parse_hostBitsInBlockAreIgnored() {
    assertTrue(TrustPolicy.parse("10.1.2.3/8").isTrusted(ip("10.9.9.9")));
  }

  @Test
  void parse_ipv6AddressAndBlock() {
    TrustPolicy policy = TrustPolicy.parse("::1,fd00::/8");
    assertTrue(policy.isTrusted(ip("::1")));
    assertTrue(policy.isTrusted(ip("fd12:3456::1")));
    assertFalse(policy.isTrusted(ip("fe80::1")));
  }

  @Test
  void parse_bracketedIpv6IsAccepted() {
    assertTrue(TrustPolicy.parse("[::1]").isTrusted(ip("::1")));
  }

  @Test
  void parse_ipv4BlockDoesNotMatchIpv6Peer() {
    assertFalse(TrustPolicy.parse("0.0.0.0/0").isTrusted(ip("::1")));
  }

  @Test
  void parse_zeroPrefixMatchesWholeFamily() {
    assertTrue(TrustPolicy.parse("0.0.0.0/0").isTrusted(ip("203.0.113.7")));
  }

  @Test
  void parse_mixedListWithSpacesMatchesEveryEntry() {
    TrustPolicy policy = TrustPolicy.parse(" 127.0.0.1 , 10.0.0.0/8,::1 ");
    assertTrue(policy.isTrusted(ip("127.0.0.1")));
    assertTrue(policy.isTrusted(ip("10.3.2.1")));
    assertTrue(policy.isTrusted(ip("::1")));
    assertFalse(policy.isTrusted(ip("192.0.2.1")));
  }

  @Test
  void parse_blankMeansTrustNobody() {
    assertFalse(TrustPolicy.parse("  ").isTrusted(ip("127.0.0.1")));
  }

  @Test
  void parse_nullPeerIsNeverTrusted() {
    assertFalse(TrustPolicy.parse("0.0.0.0/0").isTrusted(null));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "1.2.3",
        "1.2.3.4.5",
        "256.1.1.1",
        "1.2.3.-4",
        "10.0.0.0/33",
        "10.0.0.0/",
        "10.0.0.0/x",
        "10.0.0.0/-1",
        "10.0.0.0/+8",
        "::1/129",
        "fe80::1%eth0",
        ":::",
        "1.2.3.4,,5.6.7.8",
        "1.2.3.4,"
      })
  void parse_badEntryIsRejectedWithClearMessage(String list) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TrustPolicy.parse(list));
    assertTrue(
        e.getMessage().contains("'"), () -> "message should quote the entry: " + e.getMessage());
  }

  static InetAddress ip(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }
}
