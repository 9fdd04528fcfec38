package dev.aerun.runtime.contract;

import static dev.aerun.runtime.contract.TrustPolicyTest.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jetty.http.HttpFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestContractTest {
  private static final InetSocketAddress FRONT_END = new InetSocketAddress(ip("10.1.2.3"), 4321);
  private static final InetSocketAddress CLIENT = new InetSocketAddress(ip("203.0.113.9"), 5555);
  private static final TrustPolicy POLICY = TrustPolicy.parse("10.0.0.0/8");
  private static final long NOW_NANOS = 5_000_000_000L;

  private static final List<String> PRIVATE_HEADERS =
      List.of(
          "X-AppEngine-Api-Ticket",
          "X-AppEngine-Https",
          "X-AppEngine-User-IP",
          "X-AppEngine-User-Email",
          "X-AppEngine-User-Id",
          "X-AppEngine-User-Nickname",
          "X-AppEngine-User-Is-Admin",
          "X-AppEngine-User-Organization",
          "X-AppEngine-User-Anything-New",
          "X-AppEngine-Auth-Domain",
          "X-AppEngine-Trusted-IP-Request",
          "X-AppEngine-Gaia-Id",
          "X-AppEngine-Gaia-Authuser",
          "X-AppEngine-LOAS-Peer-Username",
          "X-AppEngine-AppServer-Datacenter",
          "X-AppEngine-Default-Version-Hostname",
          "X-AppEngine-Request-Log-Id",
          "X-AppEngine-Timeout-Ms",
          "X-Google-Internal-Profiler",
          "x-appengine-user-ip",
          "X-APPENGINE-API-TICKET");

  /** Platform headers the app may see, but only from a trusted peer. */
  private static final List<String> TRUSTED_ONLY_HEADERS =
      List.of(
          "X-AppEngine-QueueName",
          "X-AppEngine-TaskName",
          "X-AppEngine-TaskRetryCount",
          "X-AppEngine-Cron",
          "X-AppEngine-Country",
          "x-appengine-cron",
          "Forwarded",
          "X-Forwarded-For",
          "X-Forwarded-Proto",
          "x-forwarded-prefix");

  private static final List<String> ORDINARY_HEADERS =
      List.of(
          "Host",
          "User-Agent",
          "X-Custom",
          "X-AppEngineish",
          "X-Cloud-Trace-Context",
          "traceparent",
          "Forwarded-Not");

  static Stream<Arguments> headerVisibilityTable() {
    List<Arguments> rows = new ArrayList<>();
    for (boolean trusted : new boolean[] {true, false}) {
      for (boolean allHeaders : new boolean[] {true, false}) {
        for (String name : PRIVATE_HEADERS) {
          rows.add(Arguments.of(name, trusted, allHeaders, trusted && allHeaders));
        }
        for (String name : TRUSTED_ONLY_HEADERS) {
          rows.add(Arguments.of(name, trusted, allHeaders, trusted));
        }
        for (String name : ORDINARY_HEADERS) {
          rows.add(Arguments.of(name, trusted, allHeaders, true));
        }
      }
    }
    return rows.stream();
  }

  @ParameterizedTest(name = "{0} trusted={1} allheaders={2} -> visible={3}")
  @MethodSource("headerVisibilityTable")
  void headerVisibility(String name, boolean trusted, boolean allHeaders, boolean visible) {
    HttpFields headers = HttpFields.build().add("Host", "app").add(name, "v").asImmutable();

    ContractResult result =
        contract(allHeaders).apply(headers, trusted ? FRONT_END : CLIENT, false);

    assertEquals(visible, result.headers().contains(name), () -> result.headers().toString());
    assertTrue(result.headers().contains("Host"));
  }

  /**
   * The handler skips {@link RequestContract#apply} for headers the contract does not concern: that
   * must change nothing, for any peer and option.
   */
  @ParameterizedTest(name = "{0} trusted={1} allheaders={2}")
  @MethodSource("headerVisibilityTable")
  void concerns_onlyWhatApplyWouldChange(
      String name, boolean trusted, boolean allHeaders, boolean visible) {
    HttpFields headers = HttpFields.build().add("Host", "app").add(name, "v").asImmutable();

    ContractResult result =
        contract(allHeaders).apply(headers, trusted ? FRONT_END : CLIENT, false);

    if (!ORDINARY_HEADERS.contains(name)) {
      assertTrue(RequestContract.concerns(headers), name); // removed or hidden somewhere
    }
    if (!RequestContract.concerns(headers)) {
      assertFalse(result.changesRequest(), name);
      assertFalse(result.hasAttributes(), name);
      assertSame(headers, result.headers(), name);
    }
  }

  @Test
  void untrustedPeer_forgedCronHeaderIsRemoved() {
    ContractResult result = apply(CLIENT, "X-AppEngine-Cron", "true");

    assertFalse(result.headers().contains("X-AppEngine-Cron"));
    assertNull(result.task());
  }

  @Test
  void untrustedPeer_forgedUserEmailIsRemovedEvenWithAllHeaders() {
    ContractResult result =
        contract(true).apply(fields("X-AppEngine-User-Email", "admin@example.com"), CLIENT, false);

    assertFalse(result.headers().contains("X-AppEngine-User-Email"));
    assertNull(result.user());
  }

  @Test
  void untrustedPeer_userIpAndHttpsAreIgnored() {
    ContractResult result =
        apply(CLIENT, "X-AppEngine-User-IP", "198.51.100.1", "X-AppEngine-Https", "on");

    assertSame(CLIENT, result.remoteAddress());
    assertFalse(result.secure());
    assertFalse(result.changesRequest() && !result.headersChanged());
  }

  @Test
  void untrustedPeer_timeoutAndLogIdAreIgnored() {
    ContractResult result =
        apply(CLIENT, "X-AppEngine-Timeout-Ms", "1000", "X-AppEngine-Request-Log-Id", "abc");

    assertFalse(result.hasDeadline());
    assertNull(result.requestLogId());
    assertFalse(result.hasAttributes());
  }

  @Test
  void nullPeer_isNotTrusted() {
    ContractResult result = contract(false).apply(fields("X-AppEngine-Cron", "true"), null, false);

    assertFalse(result.trustedPeer());
    assertNull(result.task());
  }

  @Test
  void trustedPeer_userIpBecomesRemoteAddressWithPortZero() {
    ContractResult result = apply(FRONT_END, "X-AppEngine-User-IP", "198.51.100.1");

    assertEquals(new InetSocketAddress(ip("198.51.100.1"), 0), result.remoteAddress());
    assertTrue(result.remoteAddressFromHeader());
    assertTrue(result.changesRequest());
  }

  @Test
  void trustedPeer_ipv6UserIpBecomesRemoteAddress() {
    ContractResult result = apply(FRONT_END, "X-AppEngine-User-IP", "2001:db8::7");

    assertEquals(ip("2001:db8::7"), result.remoteAddress().getAddress());
    assertEquals(0, result.remoteAddress().getPort());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "not-an-ip", "999.1.1.1", "1.2.3", "example.com"})
  void trustedPeer_invalidUserIpIsIgnored(String value) {
    ContractResult result = apply(FRONT_END, "X-AppEngine-User-IP", value);

    assertSame(FRONT_END, result.remoteAddress());
    assertFalse(result.remoteAddressFromHeader());
    assertFalse(result.headers().contains("X-AppEngine-User-IP"));
  }

  @Test
  void trustedPeer_headerNamesMatchCaseInsensitively() {
    ContractResult result =
        apply(FRONT_END, "x-APPENGINE-user-ip", "198.51.100.1", "X-APPENGINE-HTTPS", "on");

    assertEquals(ip("198.51.100.1"), result.remoteAddress().getAddress());
    assertTrue(result.secure());
    assertEquals(0, result.headers().size());
  }

  @Test
  void trustedPeer_httpsOnMakesRequestSecure() {
    ContractResult result = apply(FRONT_END, "X-AppEngine-Https", "on");

    assertTrue(result.secure());
    assertTrue(result.secureFromHeader());
  }

  @Test
  void trustedPeer_httpsOffLeavesRequestPlain() {
    ContractResult result = apply(FRONT_END, "X-AppEngine-Https", "off");

    assertFalse(result.secure());
    assertFalse(result.secureFromHeader());
  }

  @Test
  void secureConnection_staysSecureWithoutHeader() {
    ContractResult result = contract(false).apply(fields("Host", "app"), CLIENT, true);

    assertTrue(result.secure());
    assertFalse(result.changesRequest());
  }

  @Test
  void trustedPeer_timeoutGivesDeadlineFromArrival() {
    ContractResult result = apply(FRONT_END, "X-AppEngine-Timeout-Ms", "1500");

    assertEquals(1500, result.timeoutMillis());
    assertEquals(NOW_NANOS + 1_500_000_000L, result.deadlineNanos());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "soon", "-5", "1.5", "99999999999999999999"})
  void trustedPeer_invalidTimeoutIsIgnored(String value) {
    ContractResult result = apply(FRONT_END, "X-AppEngine-Timeout-Ms", value);

    assertFalse(result.hasDeadline());
    assertEquals(-1, result.timeoutMillis());
  }

  @Test
  void trustedPeer_logIdAndDefaultHostnameAreReadAndHidden() {
    ContractResult result =
        apply(
            FRONT_END,
            "X-AppEngine-Request-Log-Id",
            "5f3a",
            "X-AppEngine-Default-Version-Hostname",
            "app.example.com");

    assertEquals("5f3a", result.requestLogId());
    assertEquals("app.example.com", result.defaultVersionHostname());
    assertEquals(0, result.headers().size());
  }

  @Test
  void trustedPeer_userHeadersGiveUser() {
    ContractResult result =
        apply(
            FRONT_END,
            "X-AppEngine-User-Email",
            "ada@example.com",
            "X-AppEngine-User-Id",
            "42",
            "X-AppEngine-User-Nickname",
            "ada",
            "X-AppEngine-User-Is-Admin",
            "1",
            "X-AppEngine-Auth-Domain",
            "gmail.com",
            "X-AppEngine-User-Organization",
            "example.com");

    assertEquals(
        new UserInfo("ada@example.com", "42", "ada", true, "gmail.com", "example.com"),
        result.user());
  }

  @Test
  void trustedPeer_userWithoutEmailIsNoUser() {
    assertNull(apply(FRONT_END, "X-AppEngine-User-Id", "42").user());
  }

  @Test
  void trustedPeer_isAdminZeroMeansNotAdmin() {
    ContractResult result =
        apply(FRONT_END, "X-AppEngine-User-Email", "a@b", "X-AppEngine-User-Is-Admin", "0");

    assertFalse(result.user().admin());
  }

  @Test
  void trustedPeer_taskHeadersGiveTaskInfoAndStayVisible() {
    ContractResult result =
        apply(
            FRONT_END,
            "X-AppEngine-QueueName",
            "default",
            "X-AppEngine-TaskName",
            "t1",
            "X-AppEngine-TaskRetryCount",
            "3");

    assertEquals(new TaskInfo("default", "t1", 3, false), result.task());
    assertEquals(3, result.headers().size());
    assertFalse(result.changesRequest());
  }

  @Test
  void trustedPeer_cronHeaderIsReadAndStaysVisibleToApp() {
    ContractResult result = apply(FRONT_END, "X-AppEngine-Cron", "true");

    assertTrue(result.task().cron());
    assertEquals("true", result.headers().get("X-AppEngine-Cron"));
  }

  @Test
  void trustedPeer_invalidRetryCountIsMinusOne() {
    assertEquals(-1, apply(FRONT_END, "X-AppEngine-TaskRetryCount", "many").task().retryCount());
  }

  @Test
  void trustedPeer_forwardedHeadersStayVisibleAndNameTheClient() {
    ContractResult result = apply(FRONT_END, "X-Forwarded-For", "198.51.100.1");

    assertEquals(new InetSocketAddress(ip("198.51.100.1"), 0), result.remoteAddress());
    assertTrue(result.remoteAddressFromHeader());
    assertEquals("198.51.100.1", result.headers().get("X-Forwarded-For"));
  }

  @Test
  void noPlatformHeaders_keepsSameFieldsInstanceAndChangesNothing() {
    HttpFields headers = fields("Host", "app", "Accept", "*/*");

    ContractResult result = contract(false).apply(headers, FRONT_END, false);

    assertSame(headers, result.headers());
    assertFalse(result.changesRequest());
    assertFalse(result.hasAttributes());
  }

  @Test
  void removingHeaders_keepsOtherHeadersInOrder() {
    ContractResult result =
        apply(
            CLIENT, "A", "1", "X-AppEngine-Cron", "true", "B", "2", "Forwarded", "for=x", "C", "3");

    assertEquals(
        List.of("A", "B", "C"), result.headers().getFieldNamesCollection().stream().toList());
  }

  @Test
  void cloudTraceContext_isParsedFromAnyPeer() {
    ContractResult result =
        apply(CLIENT, "X-Cloud-Trace-Context", "105445AA7843BC8BF206B12000100000/1;o=1");

    assertEquals(
        new TraceContext("105445aa7843bc8bf206b12000100000", "0000000000000001", true),
        result.trace());
  }

  @Test
  void cloudTraceContext_decimalSpanBecomesHex() {
    TraceContext trace =
        TraceContext.parseCloudTraceContext(
            "105445aa7843bc8bf206b12000100000/18446744073709551615;o=0");

    assertEquals("ffffffffffffffff", trace.spanId());
    assertFalse(trace.sampled());
  }

  @Test
  void cloudTraceContext_traceIdAloneIsEnough() {
    assertEquals(
        new TraceContext("105445aa7843bc8bf206b12000100000", null, false),
        TraceContext.parseCloudTraceContext("105445aa7843bc8bf206b12000100000"));
  }

  @Test
  void traceparent_isParsed() {
    ContractResult result =
        apply(CLIENT, "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

    assertEquals(
        new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", true),
        result.trace());
  }

  @Test
  void traceparent_futureVersionWithExtraPartIsAccepted() {
    assertEquals(
        "4bf92f3577b34da6a3ce929d0e0e4736",
        TraceContext.parseTraceparent(
                "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-extra")
            .traceId());
  }

  @Test
  void bothTraceHeaders_cloudTraceContextWins() {
    ContractResult result =
        apply(
            CLIENT,
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "X-Cloud-Trace-Context",
            "105445aa7843bc8bf206b12000100000/1;o=1");

    assertEquals("105445aa7843bc8bf206b12000100000", result.trace().traceId());
  }

  @Test
  void invalidCloudTraceContext_fallsBackToTraceparent() {
    ContractResult result =
        apply(
            CLIENT,
            "X-Cloud-Trace-Context",
            "nonsense",
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

    assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", result.trace().traceId());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "abc",
        "105445aa7843bc8bf206b1200010000/1;o=1",
        "105445aa7843bc8bf206b120001000zz/1;o=1",
        "00000000000000000000000000000000/1;o=1",
        "105445aa7843bc8bf206b12000100000/",
        "105445aa7843bc8bf206b12000100000/-1",
        "105445aa7843bc8bf206b12000100000/1x",
        "105445aa7843bc8bf206b12000100000/18446744073709551616",
        "105445aa7843bc8bf206b12000100000/1;o=",
        "105445aa7843bc8bf206b12000100000/1;x=1",
        "105445aa7843bc8bf206b12000100000x"
      })
  void invalidCloudTraceContext_isIgnored(String value) {
    assertNull(TraceContext.parseCloudTraceContext(value));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
      })
  void invalidTraceparent_isIgnored(String value) {
    assertNull(TraceContext.parseTraceparent(value));
  }

  @Test
  void invalidTraceHeaders_giveNoTraceAndStayVisible() {
    ContractResult result = apply(CLIENT, "X-Cloud-Trace-Context", "bad", "traceparent", "bad");

    assertNull(result.trace());
    assertEquals(2, result.headers().size());
  }

  private static RequestContract contract(boolean allHeaders) {
    return new RequestContract(new ContractOptions(POLICY, allHeaders), () -> NOW_NANOS);
  }

  private static ContractResult apply(InetSocketAddress peer, String... namesAndValues) {
    return contract(false).apply(fields(namesAndValues), peer, false);
  }

  private static HttpFields fields(String... namesAndValues) {
    HttpFields.Mutable fields = HttpFields.build();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      fields.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return fields.asImmutable();
  }
}
