package dev.aerun.runtime.apis;

import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.security.LoginUrls;
import java.util.Objects;

/**
 * What an app with {@code <app-engine-apis>} on gets from the runtime (see {@link
 * ApiProxyHandler}). Immutable.
 *
 * @param environment the app's ids, as {@code ApiProxy.Environment} reports them
 * @param loginUrls where the Users service's login and logout URLs point
 * @param appName the app's name in log lines
 * @param client the API host's client (shared by every deploy of the app), or null when there is
 *     none: remote calls then fail at once
 */
public record AppEngineApis(
    AppEnvironment environment, LoginUrls loginUrls, String appName, ApiHostClient client) {
  public AppEngineApis {
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(loginUrls, "loginUrls");
    Objects.requireNonNull(appName, "appName");
  }
}
