package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.runtime.apis.AppEngineApis;
import dev.aerun.runtime.statics.StaticFiles;
import dev.aerun.runtime.webapp.Deployment;
import dev.aerun.runtime.webapp.JspUsage;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Handler;

/**
 * Deploys the app: its webapp on the chosen EE version's host, not started, with what its
 * descriptor asks of the handlers the serving mode puts in front of it (see {@link Deployment}).
 */
final class AppDeployer {
  private static final Logger log = Logger.getLogger(AppDeployer.class.getName());

  /**
   * One loader per EE version and JSP choice for the life of the process: a redeploy ({@code
   * --watch}) gets a new webapp class loader, never a new copy of Jetty's EE classes.
   */
  private static final Map<String, ClassLoader> EE_LOADERS = new ConcurrentHashMap<>();

  /**
   * The app of {@code config}, deployed (not started) with {@code descriptor} and {@code
   * selection}: the configuration's at start, the changed ones at each redeploy in development. Its
   * App Engine API calls go to {@code apis}' host.
   */
  static Deployment deploy(
      RuntimeConfig config,
      AppEngineWebXml descriptor,
      RuntimeSelection selection,
      WorkDirectory work,
      BundledServices apis)
      throws StartupException {
    StagedApp app = config.app();
    LaunchOptions options = config.options();
    Path location = app.war() ? unpack(app, options, work) : app.location();
    try {
      boolean jsp = JspUsage.needsJsp(location);
      if (!jsp) {
        log.info(
            app.displayName() + " has no JSP, tag file or tag library: JSP support is not started");
      }
      WebappHost host =
          WebappHost.load(
              selection.ee(),
              EE_LOADERS.computeIfAbsent(
                  selection.ee() + "/" + jsp,
                  k -> {
                    ClassLoader ee = EeClassLoaders.forVersion(selection.ee(), jsp);
                    StartupClasses.eeLoaderCreated(selection.ee(), ee);
                    return ee;
                  }));
      Handler webapp =
          host.createWebapp(
              new WebappSpec(location, "/", work.scratch())
                  .withSessions(AppSettings.sessions(options, descriptor))
                  .withJsp(jsp)
                  .withLogin(options.loginUrls())
                  .withExtraClasspath(options.classpath())
                  .withDevelopment(options.development())
                  .withDeferredTasks(descriptor.appEngineApis()));
      return new Deployment(
          webapp,
          path -> host.mapsPath(webapp, path),
          AppSettings.warmupEnabled(descriptor),
          Optional.of(
              StaticFiles.from(
                  descriptor, null, config.staticCacheBytes(), () -> host.accessCheck(webapp))),
          appEngineApis(app, descriptor, options, apis));
    } catch (IOException | RuntimeException e) {
      throw new StartupException(
          app.displayName()
              + ": cannot prepare the "
              + selection.ee()
              + " webapp: "
              + RuntimeStarter.rootMessage(e),
          e);
    }
  }

  /**
   * Unpacks the WAR into the working directory: Jetty is only ever given an exploded app, whose
   * every entry was checked (see {@link WarUnpacker}).
   */
  private static Path unpack(StagedApp app, LaunchOptions options, WorkDirectory work)
      throws StartupException {
    try {
      WarUnpacker.unpack(app.location(), work.app(), options.warLimits(), work::deleting);
      return work.app();
    } catch (WarUnpacker.Refused e) {
      throw new StartupException(app.location() + ": refused: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new StartupException(
          app.location() + ": cannot unpack the war: " + RuntimeStarter.rootMessage(e), e);
    }
  }

  /**
   * What requests get from the App Engine API SDK when the descriptor turns {@code
   * <app-engine-apis>} on: their remote calls go to {@code apis}' host (with the one warning when
   * there is none: those calls fail at once).
   */
  private static Optional<AppEngineApis> appEngineApis(
      StagedApp app, AppEngineWebXml descriptor, LaunchOptions options, BundledServices apis) {
    if (!descriptor.appEngineApis()) {
      return Optional.empty();
    }
    if (apis.client() == null) {
      log.warning(
          app.displayName()
              + ": <app-engine-apis> is on, but no App Engine API host is named: the Users API,"
              + " the app's ids and the request deadline work through ApiProxy; calls to App"
              + " Engine's other services (Datastore, Memcache, Task Queue, Mail ...) fail at once."
              + " Name one with API_HOST and API_PORT or --api-host, or use the Google Cloud"
              + " client libraries");
    }
    return Optional.of(
        new AppEngineApis(
            AppSettings.environment(descriptor, options),
            options.loginUrls(),
            app.displayName(),
            apis.client()));
  }

  private AppDeployer() {}
}
