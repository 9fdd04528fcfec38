package dev.aerun.runtime.contract;

import static dev.aerun.runtime.contract.TrustPolicyTest.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetSocketAddress;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.util.Attributes;
import org.junit.jupiter.api.Test;

/** The API ticket: kept from a trusted front end for an app with bundled services, never shown. */
class ApiTicketContractTest {
  private static final InetSocketAddress FRONT_END = new InetSocketAddress(ip("10.1.2.3"), 4321);
  private static final InetSocketAddress CLIENT = new InetSocketAddress(ip("203.0.113.9"), 5555);
  private static final ContractOptions APIS =
      new ContractOptions(TrustPolicy.parse("10.0.0.0/8"), false).withApiTicket(true);
  private static final HttpFields HEADERS =
      HttpFields.build().add("X-AppEngine-Api-Ticket", "t-123").add("Accept", "*/*");

  @Test
  void trustedTicket_isKeptAndHiddenFromTheHeaders() {
    ContractResult result = new RequestContract(APIS).apply(HEADERS, FRONT_END, false);
    assertEquals("t-123", result.apiTicket());
    assertFalse(result.headers().contains("X-AppEngine-Api-Ticket"));
    Attributes.Mapped attributes = new Attributes.Mapped();
    RequestAttributes.setAll(attributes, result);
    assertEquals("t-123", attributes.getAttribute(RequestAttributes.API_TICKET));
  }

  @Test
  void untrustedTicket_isDropped() {
    ContractResult result = new RequestContract(APIS).apply(HEADERS, CLIENT, false);
    assertNull(result.apiTicket());
    assertFalse(result.headers().contains("X-AppEngine-Api-Ticket"));
  }

  @Test
  void appWithoutBundledServices_keepsNoTicket() {
    ContractResult result =
        new RequestContract(APIS.withApiTicket(false)).apply(HEADERS, FRONT_END, false);
    assertNull(result.apiTicket());
    Attributes.Mapped attributes = new Attributes.Mapped();
    RequestAttributes.setAll(attributes, result);
    assertNull(attributes.getAttribute(RequestAttributes.API_TICKET));
  }
}
