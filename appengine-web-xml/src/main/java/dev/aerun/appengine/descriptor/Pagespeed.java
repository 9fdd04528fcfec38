package dev.aerun.appengine.descriptor;

import java.util.List;

/**
 * The legacy {@code <pagespeed>} block (not in the reference schema, accepted by older SDKs).
 *
 * @param urlBlacklist {@code url-blacklist} values
 * @param domainsToRewrite {@code domain-to-rewrite} values
 * @param enabledRewriters {@code enabled-rewriter} values
 * @param disabledRewriters {@code disabled-rewriter} values
 */
public record Pagespeed(
    List<String> urlBlacklist,
    List<String> domainsToRewrite,
    List<String> enabledRewriters,
    List<String> disabledRewriters) {
  /** Copies the lists. */
  public Pagespeed {
    urlBlacklist = List.copyOf(urlBlacklist);
    domainsToRewrite = List.copyOf(domainsToRewrite);
    enabledRewriters = List.copyOf(enabledRewriters);
    disabledRewriters = List.copyOf(disabledRewriters);
  }
}
