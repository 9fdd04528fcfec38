package dev.aerun.runtime.contract;

import java.util.Map;
import java.util.Objects;

/**
 * How the request contract is applied: who is trusted, and whether private platform headers stay
 * visible to the app. Read once at startup, then passed down.
 *
 * @param trustPolicy which peers may send platform headers (all of them, the forwarding ones
 *     included)
 * @param allHeaders {@code appengine.use.allheaders}: keep private headers visible to the app (they
 *     are still removed when the peer is not trusted)
 * @param apiTicket whether a trusted {@code X-AppEngine-Api-Ticket} is kept for the app's API calls
 *     ({@link RequestAttributes#API_TICKET}): on for an app with {@code <app-engine-apis>}, whose
 *     API handler takes it off the request before the app sees it
 * @param forwardedFrom which further peers may send the forwarding headers only ({@code
 *     X-Forwarded-For}, {@code X-Forwarded-Proto}, the other {@code X-Forwarded-*}, {@code
 *     Forwarded}): a front end that sets those but passes a client's {@code X-AppEngine-*} on
 */
public record ContractOptions(
    TrustPolicy trustPolicy, boolean allHeaders, boolean apiTicket, TrustPolicy forwardedFrom) {
  /** The system property that keeps private platform headers visible to the app. */
  public static final String ALL_HEADERS_PROPERTY = "appengine.use.allheaders";

  public ContractOptions {
    Objects.requireNonNull(trustPolicy, "trustPolicy");
    Objects.requireNonNull(forwardedFrom, "forwardedFrom");
  }

  /** Options that trust no peer for the forwarding headers only. */
  public ContractOptions(TrustPolicy trustPolicy, boolean allHeaders, boolean apiTicket) {
    this(trustPolicy, allHeaders, apiTicket, TrustPolicy.trustNone());
  }

  /** Options that keep no API ticket. */
  public ContractOptions(TrustPolicy trustPolicy, boolean allHeaders) {
    this(trustPolicy, allHeaders, false);
  }

  /** These options with the API ticket kept or not. */
  public ContractOptions withApiTicket(boolean keep) {
    return new ContractOptions(trustPolicy, allHeaders, keep, forwardedFrom);
  }

  /** These options with {@code peers} trusted for the forwarding headers only. */
  public ContractOptions withForwardedFrom(TrustPolicy peers) {
    return new ContractOptions(trustPolicy, allHeaders, apiTicket, peers);
  }

  /** Trust nobody, hide private headers: the safe default off the managed platform. */
  public static ContractOptions defaults() {
    return new ContractOptions(TrustPolicy.trustNone(), false);
  }

  /**
   * Options from already-collected properties (descriptor and {@code -D} merged by the caller):
   * {@value #ALL_HEADERS_PROPERTY} is on when its value is {@code true}, ignoring case.
   */
  public static ContractOptions fromProperties(
      Map<String, String> properties, TrustPolicy trustPolicy) {
    return new ContractOptions(
        trustPolicy, Boolean.parseBoolean(properties.get(ALL_HEADERS_PROPERTY)));
  }
}
