package dev.aerun.runtime.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.util.Attributes;
import org.junit.jupiter.api.Test;

class ContractResultBuilderTest {
  @Test
  void builder_startsWithNothing() {
    ContractResult result = ContractResult.builder().build();

    assertFalse(result.hasAttributes());
    assertFalse(result.hasDeadline());
    assertFalse(result.changesRequest());
    assertEquals(0, result.headers().size());
  }

  @Test
  void builder_rebuildsWhatTheContractDecided() {
    HttpFields headers =
        HttpFields.build()
            .add("Host", "example.com")
            .add("X-AppEngine-User-IP", "203.0.113.7")
            .add("X-AppEngine-Https", "on")
            .add("X-AppEngine-Timeout-Ms", "1000")
            .add("X-AppEngine-Request-Log-Id", "log")
            .add("X-Cloud-Trace-Context", "0123456789abcdef0123456789abcdef/1;o=1")
            .add("X-AppEngine-User-Email", "u@example.com")
            .add("X-AppEngine-QueueName", "q")
            .add("X-AppEngine-Cron", "true");
    ContractResult decided =
        new RequestContract(new ContractOptions(TrustPolicy.trustAll(), false), () -> 5L)
            .apply(headers, new InetSocketAddress("10.0.0.1", 1), false);

    ContractResult rebuilt =
        ContractResult.builder()
            .trustedPeer(decided.trustedPeer())
            .remoteAddress(decided.remoteAddress(), decided.remoteAddressFromHeader())
            .secure(decided.secure(), decided.secureFromHeader())
            .deadline(decided.timeoutMillis(), decided.deadlineNanos())
            .requestLogId(decided.requestLogId())
            .defaultVersionHostname(decided.defaultVersionHostname())
            .trace(decided.trace())
            .user(decided.user())
            .task(decided.task())
            .headers(decided.headers(), decided.headersChanged())
            .build();

    assertEquals(decided.toString(), rebuilt.toString());
    assertEquals(attributes(decided), attributes(rebuilt));
    assertEquals(1_000_000_005L, rebuilt.deadlineNanos());
    assertTrue(rebuilt.changesRequest());
  }

  @Test
  void setAll_setsTheDocumentedTypes() {
    ContractResult result =
        ContractResult.builder()
            .deadline(250, 99)
            .task(new TaskInfo("q", null, 2, true))
            .user(new UserInfo("u@example.com", null, null, true, null, null))
            .trace(new TraceContext("0123456789abcdef0123456789abcdef", null, false))
            .build();

    Map<String, Object> attributes = attributes(result);

    assertEquals(250L, attributes.get(RequestAttributes.TIMEOUT_MILLIS));
    assertEquals(99L, attributes.get(RequestAttributes.DEADLINE_NANOS));
    assertEquals(2, attributes.get(RequestAttributes.TASK_RETRY_COUNT));
    assertEquals(Boolean.TRUE, attributes.get(RequestAttributes.CRON));
    assertEquals(Boolean.TRUE, attributes.get(RequestAttributes.USER_IS_ADMIN));
    assertEquals(Boolean.FALSE, attributes.get(RequestAttributes.TRACE_SAMPLED));
    assertFalse(attributes.containsKey(RequestAttributes.SPAN_ID));
    assertFalse(attributes.containsKey(RequestAttributes.TASK_NAME));
    assertFalse(attributes.containsKey(RequestAttributes.USER_ID));
  }

  private static Map<String, Object> attributes(ContractResult result) {
    Attributes.Mapped target = new Attributes.Mapped();
    RequestAttributes.setAll(target, result);
    Map<String, Object> map = new TreeMap<>();
    for (String name : target.getAttributeNameSet()) {
      map.put(name, target.getAttribute(name));
    }
    return map;
  }
}
