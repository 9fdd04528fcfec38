package dev.aerun.runtime.webapp;

import dev.aerun.runtime.apis.AppEngineApis;
import dev.aerun.runtime.statics.StaticFiles;
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

  /** Deploys an app: the launcher's, called again for each redeploy in development. */
  @FunctionalInterface
  public interface Deployer {
    Deployment deploy() throws Exception;
  }
}
