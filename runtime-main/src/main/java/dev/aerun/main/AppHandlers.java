package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.runtime.apis.ApiProxyHandler;
import dev.aerun.runtime.lifecycle.WarmupHandler;
import dev.aerun.runtime.security.DevLoginHandler;
import dev.aerun.runtime.statics.StaticFiles;
import dev.aerun.runtime.webapp.JspUsage;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Handler;

/**
 * The app's handler, not started: warm-up in front of static files in front of the webapp (with the
 * App Engine API environment when the descriptor asks for it), on the chosen EE version's host.
 */
final class AppHandlers {
  private static final Logger log = Logger.getLogger(AppHandlers.class.getName());

  /**
   * One loader per EE version and JSP choice for the life of the process: a redeploy ({@code
   * --watch}) gets a new webapp class loader, never a new copy of Jetty's EE classes.
   */
  private static final Map<String, ClassLoader> EE_LOADERS = new ConcurrentHashMap<>();

  /**
   * The app's handler, not started: warm-up in front of static files in front of the webapp. Called
   * again for each redeploy in development.
   */
  static Handler create(
      StagedApp app,
      RuntimeSelection selection,
      LaunchOptions options,
      AppEngineWebXml descriptor,
      WorkDirectory work,
      BundledServices apis)
      throws StartupException {
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
      Handler served =
          new WarmupHandler(
              StaticFiles.wrap(
                  descriptor,
                  null,
                  withAppEngineApis(webapp, app, descriptor, options, apis),
                  options.development(),
                  () -> host.accessCheck(webapp)),
              AppSettings.warmupEnabled(descriptor),
              path -> host.mapsPath(webapp, path));
      // Development only: anyone may pick a user there, so production never has the page.
      return options.development() ? new DevLoginHandler(served) : served;
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
   * {@code webapp} with the App Engine API SDK's per-request environment when the descriptor turns
   * {@code <app-engine-apis>} on, its remote calls sent to {@code apis}' host (with the one warning
   * when there is none: those calls fail at once).
   */
  private static Handler withAppEngineApis(
      Handler webapp,
      StagedApp app,
      AppEngineWebXml descriptor,
      LaunchOptions options,
      BundledServices apis) {
    if (!descriptor.appEngineApis()) {
      return webapp;
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
    return new ApiProxyHandler(
        webapp,
        AppSettings.environment(descriptor, options),
        options.loginUrls(),
        app.displayName(),
        apis.client());
  }

  private AppHandlers() {}
}
