package dev.aerun.runtime.dev;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * What {@code --development} adds to the request path, in either serving mode: the check that tells
 * the developer's requests from everyone else's ({@link DeveloperHandler}), the {@value
 * DevStatusHandler#PATH} status page, the login page ({@code DevLoginHandler}) and, with {@code
 * --watch}, the redeploy of the app in place ({@link ReloadableHandler}). Never given in
 * production. Immutable.
 *
 * @param hosts the host names the developer's requests name (see {@link DeveloperHandler})
 * @param statusPage the status page's text, asked for at each request of it
 * @param watch whether the app is redeployed in place when it changes
 */
public record Development(DevelopmentHosts hosts, Supplier<String> statusPage, boolean watch) {
  public Development {
    Objects.requireNonNull(hosts, "hosts");
    Objects.requireNonNull(statusPage, "statusPage");
  }
}
