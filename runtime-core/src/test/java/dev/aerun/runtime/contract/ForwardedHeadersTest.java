package dev.aerun.runtime.contract;

import static dev.aerun.runtime.contract.TrustPolicyTest.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import org.eclipse.jetty.http.HttpFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The forwarding headers ({@code X-Forwarded-For}, {@code X-Forwarded-Proto}, {@code Forwarded})
 * from peers trusted for them: the client's address and scheme, the hop rule, malformed values, and
 * the separate trust that believes them without believing {@code X-AppEngine-*}.
 */
class ForwardedHeadersTest {
  /** Trusted for every platform header. */
  private static final InetSocketAddress PLATFORM = new InetSocketAddress(ip("10.1.2.3"), 4321);

  /** Trusted for the forwarding headers only (a Cloud Run or load balancer front end). */
  private static final InetSocketAddress PROXY = new InetSocketAddress(ip("35.191.4.5"), 4000);

  /** Trusted for nothing. */
  private static final InetSocketAddress STRANGER = new InetSocketAddress(ip("203.0.113.9"), 5555);

  private static final ContractOptions OPTIONS =
      new ContractOptions(TrustPolicy.parse("10.0.0.0/8"), false)
          .withForwardedFrom(TrustPolicy.parseForwarders("35.191.0.0/16,130.211.0.0/22"));

  private static ContractResult apply(InetSocketAddress peer, String... namesAndValues) {
    return apply(OPTIONS, peer, namesAndValues);
  }

  private static ContractResult apply(
      ContractOptions options, InetSocketAddress peer, String... namesAndValues) {
    HttpFields.Mutable fields = HttpFields.build();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      fields.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return new RequestContract(options).apply(fields.asImmutable(), peer, false);
  }

  @Test
  void forwardingPeer_setsSchemeAndClient_andKeepsTheHeadersVisible() {
    ContractResult result =
        apply(PROXY, "X-Forwarded-For", "198.51.100.7", "X-Forwarded-Proto", "https");

    assertTrue(result.secure());
    assertTrue(result.secureFromHeader());
    assertEquals(new InetSocketAddress(ip("198.51.100.7"), 0), result.remoteAddress());
    assertTrue(result.remoteAddressFromHeader());
    assertFalse(result.trustedPeer());
    assertEquals("198.51.100.7", result.headers().get("X-Forwarded-For"));
    assertEquals("https", result.headers().get("X-Forwarded-Proto"));
    assertTrue(result.changesRequest());
  }

  @Test
  void forwardingPeer_isNotTrustedForPlatformIdentityHeaders() {
    ContractResult result =
        apply(
            PROXY,
            "X-Forwarded-Proto",
            "https",
            "X-AppEngine-User-Email",
            "evil@example.com",
            "X-AppEngine-User-Is-Admin",
            "1",
            "X-AppEngine-QueueName",
            "default",
            "X-AppEngine-Cron",
            "true",
            "X-AppEngine-User-IP",
            "192.0.2.66",
            "X-AppEngine-Https",
            "on",
            "X-Google-Internal-SkipAdminCheck",
            "true",
            "X-AppEngine-Country",
            "US");

    assertNull(result.user());
    assertNull(result.task());
    assertFalse(result.skipAdminCheck());
    assertEquals(PROXY, result.remoteAddress());
    assertTrue(result.secure()); // from X-Forwarded-Proto, not X-AppEngine-Https
    assertEquals(1, result.headers().size(), result.headers().toString());
    assertEquals("https", result.headers().get("X-Forwarded-Proto"));
  }

  @Test
  void untrustedPeer_forwardingHeadersChangeNothingAndAreRemoved() {
    ContractResult result =
        apply(
            STRANGER,
            "X-Forwarded-For",
            "198.51.100.7",
            "X-Forwarded-Proto",
            "https",
            "Forwarded",
            "for=198.51.100.7;proto=https",
            "X-Forwarded-Host",
            "evil.example.com");

    assertFalse(result.secure());
    assertEquals(STRANGER, result.remoteAddress());
    assertFalse(result.remoteAddressFromHeader());
    assertEquals(0, result.headers().size());
  }

  @Test
  void platformTrustedPeer_isTrustedForForwardingToo_butItsAppEngineHeadersComeFirst() {
    ContractResult forwarded =
        apply(PLATFORM, "X-Forwarded-For", "198.51.100.7", "X-Forwarded-Proto", "https");
    assertTrue(forwarded.secure());
    assertEquals(ip("198.51.100.7"), forwarded.remoteAddress().getAddress());

    ContractResult both =
        apply(
            PLATFORM,
            "X-Forwarded-For",
            "198.51.100.7",
            "X-AppEngine-User-IP",
            "192.0.2.1",
            "X-Forwarded-Proto",
            "http",
            "X-AppEngine-Https",
            "on");
    assertEquals(ip("192.0.2.1"), both.remoteAddress().getAddress());
    assertTrue(both.secure());
  }

  @Test
  void hops_theRightMostAddressNotItselfAProxyIsTheClient() {
    ContractResult result =
        apply(PROXY, "X-Forwarded-For", "192.0.2.99, 198.51.100.7, 130.211.0.9, 35.191.1.1");
    assertEquals(ip("198.51.100.7"), result.remoteAddress().getAddress());

    // Repeated fields are one list.
    ContractResult repeated =
        apply(PROXY, "X-Forwarded-For", "192.0.2.99", "X-Forwarded-For", "198.51.100.7");
    assertEquals(ip("198.51.100.7"), repeated.remoteAddress().getAddress());

    // Platform-trusted addresses are proxies too.
    ContractResult viaPlatform = apply(PROXY, "X-Forwarded-For", "198.51.100.7, 10.0.0.1");
    assertEquals(ip("198.51.100.7"), viaPlatform.remoteAddress().getAddress());
  }

  @Test
  void hops_allProxies_theLeftMostIsTheClient() {
    ContractResult result = apply(PROXY, "X-Forwarded-For", "35.191.9.9, 130.211.0.9");
    assertEquals(ip("35.191.9.9"), result.remoteAddress().getAddress());
  }

  @Test
  void hops_behindAnAllTrustedFrontEnd_theRightMostIsTheClient() {
    ContractOptions all =
        new ContractOptions(TrustPolicy.trustNone(), false)
            .withForwardedFrom(TrustPolicy.parseForwarders("all"));
    ContractResult result =
        apply(
            all, STRANGER, "X-Forwarded-For", "192.0.2.99, 198.51.100.7", "X-AppEngine-Cron", "1");
    assertEquals(ip("198.51.100.7"), result.remoteAddress().getAddress());
    assertNull(result.task());

    // Listed beside "all", an address is a proxy hop.
    ContractOptions allAndOne =
        new ContractOptions(TrustPolicy.trustNone(), false)
            .withForwardedFrom(TrustPolicy.parseForwarders("all, 34.1.2.3"));
    ContractResult viaBalancer =
        apply(allAndOne, STRANGER, "X-Forwarded-For", "192.0.2.99, 198.51.100.7, 34.1.2.3");
    assertEquals(ip("198.51.100.7"), viaBalancer.remoteAddress().getAddress());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "unknown",
        "not-an-ip",
        "198.51.100.7:99999",
        "198.51.100.7:",
        "[2001:db8::1",
        "2001:db8::1]:80",
        "",
        " , ",
        "198.51.100.7, garbage",
        "300.1.1.1",
        "1.2.3.4.5",
        "[198.51.100.7]x",
        "fe80::1%eth0"
      })
  void malformedHop_leavesThePeerAsTheClient(String value) {
    ContractResult result = apply(PROXY, "X-Forwarded-For", value, "X-Forwarded-Proto", "https");
    assertEquals(PROXY, result.remoteAddress());
    assertFalse(result.remoteAddressFromHeader());
    assertTrue(result.secure());
  }

  @Test
  void hopsWithPorts_andIpv6() {
    assertEquals(
        new InetSocketAddress(ip("198.51.100.7"), 4711),
        apply(PROXY, "X-Forwarded-For", "198.51.100.7:4711").remoteAddress());
    assertEquals(
        new InetSocketAddress(ip("2001:db8::1"), 443),
        apply(PROXY, "X-Forwarded-For", "[2001:db8::1]:443").remoteAddress());
    assertEquals(
        new InetSocketAddress(ip("2001:db8::1"), 0),
        apply(PROXY, "X-Forwarded-For", "2001:db8::1").remoteAddress());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http", "wss", "", "https https", "ftp", "on", "true"})
  void protoOtherThanHttps_leavesTheConnectionsScheme(String value) {
    assertFalse(apply(PROXY, "X-Forwarded-Proto", value).secure());
  }

  @Test
  void proto_isReadAtTheClientsHopWhenEveryHopHasOne_elseTheNearestProxys() {
    // client used https to the first proxy, which used http to the second
    ContractResult perHop =
        apply(
            PROXY,
            "X-Forwarded-For",
            "192.0.2.99, 198.51.100.7, 35.191.1.1",
            "X-Forwarded-Proto",
            "http, https, http");
    assertEquals(ip("198.51.100.7"), perHop.remoteAddress().getAddress());
    assertTrue(perHop.secure());

    ContractResult nearest =
        apply(
            PROXY,
            "X-Forwarded-For",
            "192.0.2.99, 198.51.100.7",
            "X-Forwarded-Proto",
            "http, http, https");
    assertTrue(nearest.secure());
    assertTrue(apply(PROXY, "X-Forwarded-Proto", "HTTPS").secure());
  }

  @Test
  void forwarded_rfc7239_whenNoXForwardedHeaders() {
    ContractResult result =
        apply(PROXY, "Forwarded", "for=\"[2001:db8:cafe::17]:4711\";proto=https;by=203.0.113.43");
    assertEquals(new InetSocketAddress(ip("2001:db8:cafe::17"), 4711), result.remoteAddress());
    assertTrue(result.secure());

    ContractResult hops =
        apply(
            PROXY,
            "Forwarded",
            "for=192.0.2.99;proto=http, For=\"198.51.100.7\";Proto=https, for=35.191.1.1");
    assertEquals(ip("198.51.100.7"), hops.remoteAddress().getAddress());
    assertTrue(hops.secure());

    ContractResult obfuscated = apply(PROXY, "Forwarded", "for=_hidden;proto=https");
    assertEquals(PROXY, obfuscated.remoteAddress());
    assertTrue(obfuscated.secure());
  }

  @Test
  void forwarded_isIgnoredWhenXForwardedHeadersArePresent() {
    // A load balancer that maintains X-Forwarded-* passes a client's own Forwarded on.
    ContractResult result =
        apply(
            PROXY,
            "Forwarded",
            "for=192.0.2.66;proto=https",
            "X-Forwarded-For",
            "198.51.100.7",
            "X-Forwarded-Proto",
            "http");
    assertEquals(ip("198.51.100.7"), result.remoteAddress().getAddress());
    assertFalse(result.secure());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "for=\"198.51.100.7;proto=https",
        "for",
        "=198.51.100.7",
        "for=198.51.100.7;proto",
        "for=198.51.100.7 proto=https",
        "for=\"198.51.100.7\"x;proto=https",
        "for=a\"b;proto=https",
        "for=;proto=https"
      })
  void malformedForwarded_isIgnoredWhole(String value) {
    ContractResult result = apply(PROXY, "Forwarded", value);
    assertEquals(PROXY, result.remoteAddress());
    assertFalse(result.secure());
  }

  @Test
  void unixSocketPeer_trustedForForwardingAsUnix() {
    ContractOptions unix =
        new ContractOptions(TrustPolicy.trustNone(), false)
            .withForwardedFrom(TrustPolicy.parseForwarders("unix"));
    HttpFields fields =
        HttpFields.build()
            .add("X-Forwarded-For", "198.51.100.7")
            .add("X-Forwarded-Proto", "https")
            .asImmutable();
    // A Unix-domain peer reaches apply(Request) only; the public overload has no such peer, so
    // check the policy itself and a TCP peer it does not list.
    assertTrue(unix.forwardedFrom().isTrustedUnixPeer(null));
    assertFalse(new RequestContract(unix).apply(fields, STRANGER, false).secure());
  }

  @Test
  void trailers_keepForwardingFieldsOnlyFromAFullyTrustedPeer() {
    RequestContract contract = new RequestContract(OPTIONS);
    HttpFields trailers = HttpFields.build().add("X-Forwarded-For", "198.51.100.7").asImmutable();
    assertEquals(0, contract.trailers(trailers, false).size());
    assertEquals(1, contract.trailers(trailers, true).size());
  }

  @Test
  void trustedProxiesList_refusesAll_theForwardingListAcceptsIt() {
    assertThrows(IllegalArgumentException.class, () -> TrustPolicy.parse("all"));
    TrustPolicy all = TrustPolicy.parseForwarders("ALL");
    assertTrue(all.isTrusted(ip("192.0.2.1")));
    assertTrue(all.isTrustedUnixPeer(null));
    assertFalse(all.isProxyAddress(ip("192.0.2.1")));
    assertThrows(IllegalArgumentException.class, () -> TrustPolicy.parseForwarders("everyone"));
  }

  @Test
  void classify_forwardingNames() {
    assertEquals(RequestContract.Role.X_FORWARDED_FOR, RequestContract.classify("x-forwarded-for"));
    assertEquals(
        RequestContract.Role.X_FORWARDED_PROTO, RequestContract.classify("X-FORWARDED-PROTO"));
    assertEquals(RequestContract.Role.FORWARDED, RequestContract.classify("Forwarded"));
    assertEquals(RequestContract.Role.FORWARDING, RequestContract.classify("X-Forwarded-Host"));
    assertEquals(RequestContract.Role.FORWARDING, RequestContract.classify("X-Forwarded-Fort"));
  }
}
