package dev.aerun.runtime.webapp;

import dev.aerun.runtime.apis.ApiProxyHandler;
import dev.aerun.runtime.apis.AppEngineApis;
import dev.aerun.runtime.lifecycle.WarmupHandler;
import dev.aerun.runtime.server.HandlerChain;
import dev.aerun.runtime.statics.StaticFiles;
import dev.aerun.runtime.statics.StaticFilesHandler;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.eclipse.jetty.server.Handler;

/**
 * A deployed app as both serving modes run it: its webapp, not started, and what its descriptor
 * asks of the handlers in front of it. Immutable; in development each redeploy makes a new one.
 *
 * @param webapp the app's handler, e.g. the EE webapp context
 * @param webappMaps whether the started webapp maps a path to a servlet of its own (its warm-up
 *     logic, see {@code WarmupHandler})
 * @param warmupEnabled whether warm-up requests are on ({@code <warmup-requests-enabled>} and the
 *     {@code warmup} inbound service)
 * @param staticFiles the static files answered in front of the webapp, if any
 * @param appEngineApis what requests get from the App Engine API SDK, when {@code
 *     <app-engine-apis>} is on
 */
public record Deployment(
    Handler webapp,
    Predicate<String> webappMaps,
    boolean warmupEnabled,
    Optional<StaticFiles> staticFiles,
    Optional<AppEngineApis> appEngineApis) {
  public Deployment {
    Objects.requireNonNull(webapp, "webapp");
    Objects.requireNonNull(webappMaps, "webappMaps");
    Objects.requireNonNull(staticFiles, "staticFiles");
    Objects.requireNonNull(appEngineApis, "appEngineApis");
  }

  /**
   * Just {@code webapp}: no static files, no App Engine APIs, warm-up requests off, and no path the
   * runtime would leave to it.
   */
  public static Deployment of(Handler webapp) {
    return new Deployment(webapp, path -> false, false, Optional.empty(), Optional.empty());
  }

  /**
   * The app's own handlers, the same in both serving modes and built again for each redeploy in
   * development: the platform's warm-up and start requests (unless the app maps them itself), then
   * the static files and the App Engine API SDK's environment, answered before the webapp as the
   * platform's front end would, then the webapp.
   */
  public Handler handlers() {
    return HandlerChain.of(
        new WarmupHandler(warmupEnabled, webappMaps),
        staticFiles.map(StaticFilesHandler::new).orElse(null),
        appEngineApis.map(ApiProxyHandler::new).orElse(null),
        webapp);
  }

  /** Deploys an app: the launcher's, called again for each redeploy in development. */
  @FunctionalInterface
  public interface Deployer {
    Deployment deploy() throws Exception;
  }
}
