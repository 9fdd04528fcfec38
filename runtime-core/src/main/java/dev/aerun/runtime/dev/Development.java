package dev.aerun.runtime.dev;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;

/**
 * What {@code --development} adds to the request path, in either serving mode: the check that tells
 * the developer's requests from everyone else's ({@link DeveloperHandler}), the {@value
 * DevStatusHandler#PATH} status page, the console of the local services below it, the login page
 * ({@code DevLoginHandler}) and, with {@code --watch}, the redeploy of the app in place ({@link
 * ReloadableHandler}). Never given in production. Immutable.
 *
 * @param hosts the host names the developer's requests name (see {@link DeveloperHandler})
 * @param statusPage the status page's text, asked for at each request of it
 * @param watch whether the app is redeployed in place when it changes
 * @param console makes the console's handler (for paths under {@value DevStatusHandler#PATH}{@code
 *     /}), which the request path puts right behind the status page; empty for none
 */
public record Development(
    DevelopmentHosts hosts,
    Supplier<String> statusPage,
    boolean watch,
    Optional<Supplier<Handler.Wrapper>> console) {
  public Development {
    Objects.requireNonNull(hosts, "hosts");
    Objects.requireNonNull(statusPage, "statusPage");
    Objects.requireNonNull(console, "console");
  }

  /** Without a console. */
  public Development(DevelopmentHosts hosts, Supplier<String> statusPage, boolean watch) {
    this(hosts, statusPage, watch, Optional.empty());
  }

  /** A new console handler for a request path, or null when there is no console. */
  public Handler.Wrapper consoleHandler() {
    return console.map(Supplier::get).orElse(null);
  }
}
