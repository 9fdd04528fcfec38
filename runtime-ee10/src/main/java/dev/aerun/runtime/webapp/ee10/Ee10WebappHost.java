package dev.aerun.runtime.webapp.ee10;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.dev.Loopback;
import dev.aerun.runtime.sessions.WebappSessions;
import dev.aerun.runtime.webapp.RuntimeLibraries;
import dev.aerun.runtime.webapp.WebappDefaults;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappSpec;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import org.eclipse.jetty.ee.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee10.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee10.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.servlet.ServletMapping;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.ee10.webapp.JspConfiguration;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ClassMatcher;

/**
 * {@code jakarta.servlet} apps on Jetty's ee10 environment. The ee11 host is generated from this
 * file at build time (see {@code build/source-transform.xml}), so it may name only what Jetty's
 * ee10 and ee11 environments share.
 */
public final class Ee10WebappHost implements WebappHost {

  /** For {@link java.util.ServiceLoader}. */
  public Ee10WebappHost() {}

  @Override
  public EeVersion eeVersion() {
    return EeVersion.EE10;
  }

  @Override
  public Handler createWebapp(WebappSpec spec) {
    ClassLoader jettyLoader = WebAppContext.class.getClassLoader();
    return WebappDefaults.withContextClassLoader(jettyLoader, () -> newWebapp(spec, jettyLoader));
  }

  @Override
  public boolean mapsPath(Handler webapp, String path) {
    if (webapp instanceof ServletContextHandler context && context.getServletHandler() != null) {
      ServletHandler.MappedServlet mapped = context.getServletHandler().getMappedServlet(path);
      return mapped != null && WebappDefaults.isOwnMapping(mapped.getPathSpec());
    }
    return false;
  }

  private static Handler newWebapp(WebappSpec spec, ClassLoader jettyLoader) {
    WebAppContext webapp = spec.jsp() ? new WebAppContext() : new WithoutJsp();
    // Before the class loader: it takes the extra class path when it is made.
    if (!spec.extraClasspath().isEmpty()) {
      webapp.setExtraClasspath(WebappDefaults.extraClasspath(spec));
    }
    // The app sees the servlet API, and Jetty scans the container's JSTL jar, through this parent.
    WebAppClassLoader loader = new WebAppClassLoader(jettyLoader, webapp);
    webapp.setClassLoader(loader);
    webapp.setTempDirectory(WebappDefaults.prepare(spec, EeVersion.EE10));
    webapp.setWar(spec.appLocation().toString());
    webapp.setContextPath(spec.contextPath());
    webapp.setThrowUnavailableOnStartupException(WebappDefaults.THROW_UNAVAILABLE_ON_STARTUP);
    webapp.setParentLoaderPriority(WebappDefaults.PARENT_LOADER_PRIORITY);
    WebappDefaults.initParameters().forEach(webapp::setInitParameter);
    WebappDefaults.contextAttributes(spec, EeVersion.EE10).forEach(webapp::setAttribute);
    // The app sees the servlet environment, not the runtime's libraries (see RuntimeLibraries).
    webapp.addHiddenClassMatcher(new ClassMatcher(RuntimeLibraries.hiddenClasses()));
    addSlf4jProvider(loader, spec);
    WebappDefaults.restrictAliases(webapp);
    // Added on top of the ServiceLoader defaults so they are on whatever the classpath discovers.
    if (spec.jsp()) {
      webapp.addConfiguration(new AnnotationConfiguration(), new JspConfiguration());
    } else {
      webapp.addConfiguration(new AnnotationConfiguration());
    }
    webapp.setErrorHandler(new NoDetailsErrorHandler(spec.development()));
    webapp.setSecurityHandler(new AppEngineSecurityHandler(spec.login()));
    configureSessions(webapp, spec.sessions());
    return webapp;
  }

  /**
   * See {@link RuntimeLibraries#slf4jProviderFor}: on the app's own class path, not its parent's.
   */
  private static void addSlf4jProvider(WebAppClassLoader loader, WebappSpec spec) {
    RuntimeLibraries.slf4jProviderFor(spec.appLocation())
        .ifPresent(
            jar -> {
              try {
                loader.addClassPath(jar.toString());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  /**
   * Enabled: Jetty's session handler with the configured cache and store. Disabled: a first filter
   * hands the app an empty session instead (see {@link WebappSessions}).
   */
  private static void configureSessions(WebAppContext webapp, WebappSessions sessions) {
    if (sessions.isEnabled()) {
      SessionHandler handler = webapp.getSessionHandler();
      try {
        handler.setSessionCache(sessions.newCache(handler));
      } catch (Exception e) {
        throw new IllegalStateException("Cannot create the session store: " + e.getMessage(), e);
      }
    } else {
      webapp.addFilter(
          new FilterHolder(new DisabledSessionsFilter(sessions)),
          "/*",
          EnumSet.allOf(DispatcherType.class));
    }
  }

  /**
   * A webapp whose app has no JSP (see {@link dev.aerun.runtime.webapp.JspUsage}): without the
   * {@code jsp} servlet Jetty's default descriptor declares (and loads on start-up), so a {@code
   * *.jsp} path is the default servlet's, which answers 404 for a file the app does not have.
   */
  private static final class WithoutJsp extends WebAppContext {
    @Override
    protected void startWebapp() throws Exception {
      ServletHandler servlets = getServletHandler();
      servlets.setServletMappings(
          WebappDefaults.withoutJsp(
              servlets.getServletMappings(),
              ServletMapping::getServletName,
              ServletMapping[]::new));
      servlets.setServlets(
          WebappDefaults.withoutJsp(
              servlets.getServlets(), ServletHolder::getName, ServletHolder[]::new));
      super.startWebapp();
    }
  }

  /** Honours {@code <error-page>} mappings; otherwise answers with the status reason only. */
  private static final class NoDetailsErrorHandler extends ErrorPageErrorHandler {
    private final boolean development;

    NoDetailsErrorHandler(boolean development) {
      this.development = development;
      setShowStacks(development);
      setShowCauses(false);
      setShowMessageInTitle(false);
      setShowOrigin(false);
    }

    @Override
    protected void generateResponse(
        Request request,
        Response response,
        int code,
        String message,
        Throwable cause,
        Callback callback)
        throws IOException {
      if (development && Loopback.isLoopbackClient(request)) {
        // Development, and the developer's own machine: the exception and its stack trace.
        super.generateResponse(request, response, code, message, cause, callback);
        return;
      }
      super.generateResponse(
          request, response, code, WebappDefaults.safeReason(code), null, callback);
    }
  }
}
