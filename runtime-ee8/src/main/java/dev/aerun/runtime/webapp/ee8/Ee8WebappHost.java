package dev.aerun.runtime.webapp.ee8;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.contract.IpLiterals;
import dev.aerun.runtime.sessions.WebappSessions;
import dev.aerun.runtime.webapp.RuntimeLibraries;
import dev.aerun.runtime.webapp.WebappDefaults;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import javax.servlet.DispatcherType;
import javax.servlet.RequestDispatcher;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee8.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee8.nested.ContextHandler;
import org.eclipse.jetty.ee8.nested.Request;
import org.eclipse.jetty.ee8.nested.SessionHandler;
import org.eclipse.jetty.ee8.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee8.servlet.FilterHolder;
import org.eclipse.jetty.ee8.servlet.ServletContextHandler;
import org.eclipse.jetty.ee8.servlet.ServletHandler;
import org.eclipse.jetty.ee8.servlet.ServletHolder;
import org.eclipse.jetty.ee8.servlet.ServletMapping;
import org.eclipse.jetty.ee8.webapp.ClassMatcher;
import org.eclipse.jetty.ee8.webapp.JspConfiguration;
import org.eclipse.jetty.ee8.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;

/**
 * {@code javax.servlet} apps on Jetty's ee8 environment. An ee8 context is not a core handler
 * itself; its core counterpart is what goes into the server.
 */
public final class Ee8WebappHost implements WebappHost {

  /** For {@link java.util.ServiceLoader}. */
  public Ee8WebappHost() {}

  @Override
  public EeVersion eeVersion() {
    return EeVersion.EE8;
  }

  @Override
  public Handler createWebapp(WebappSpec spec) {
    ClassLoader jettyLoader = WebAppContext.class.getClassLoader();
    return WebappDefaults.withContextClassLoader(jettyLoader, () -> newWebapp(spec, jettyLoader));
  }

  @Override
  public boolean mapsPath(Handler webapp, String path) {
    if (webapp instanceof ContextHandler.CoreContextHandler core
        && core.getContextHandler() instanceof ServletContextHandler context
        && context.getServletHandler() != null) {
      ServletHandler.MappedServlet mapped = context.getServletHandler().getMappedServlet(path);
      return mapped != null && WebappDefaults.isOwnMapping(mapped.getPathSpec());
    }
    return false;
  }

  private static Handler newWebapp(WebappSpec spec, ClassLoader jettyLoader) {
    WebAppContext webapp = spec.jsp() ? new WebAppContext() : new WithoutJsp();
    // Before the class loader: it takes the extra class path when it is made.
    try {
      if (!spec.extraClasspath().isEmpty()) {
        webapp.setExtraClasspath(WebappDefaults.extraClasspath(spec));
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    // The app sees the servlet API, and Jetty scans the container's JSTL jar, through this parent.
    WebAppClassLoader loader = new WebAppClassLoader(jettyLoader, webapp);
    webapp.setClassLoader(loader);
    webapp.setTempDirectory(WebappDefaults.prepare(spec, EeVersion.EE8));
    webapp.setWar(spec.appLocation().toString());
    webapp.setContextPath(spec.contextPath());
    webapp.setThrowUnavailableOnStartupException(WebappDefaults.THROW_UNAVAILABLE_ON_STARTUP);
    webapp.setParentLoaderPriority(WebappDefaults.PARENT_LOADER_PRIORITY);
    WebappDefaults.initParameters().forEach(webapp::setInitParameter);
    WebappDefaults.contextAttributes(spec, EeVersion.EE8).forEach(webapp::setAttribute);
    // The app sees the servlet environment, not the runtime's libraries (see RuntimeLibraries).
    webapp.addServerClassMatcher(new ClassMatcher(RuntimeLibraries.hiddenClasses()));
    addSlf4jProvider(loader, spec);
    WebappDefaults.restrictAliases(webapp.getCoreContextHandler());
    // Added on top of the ServiceLoader defaults so they are on whatever the classpath discovers.
    if (spec.jsp()) {
      webapp.addConfiguration(new AnnotationConfiguration(), new JspConfiguration());
    } else {
      webapp.addConfiguration(new AnnotationConfiguration());
    }
    webapp.setErrorHandler(new NoDetailsErrorHandler(spec.development()));
    webapp.setSecurityHandler(new AppEngineSecurityHandler(spec.login()));
    configureSessions(webapp, spec.sessions());
    return webapp.getCoreContextHandler();
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
        handler.setSessionCache(sessions.newCache(handler.getSessionManager()));
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
      setShowServlet(false);
      setShowMessageInTitle(false);
    }

    @Override
    protected void generateAcceptableResponse(
        Request baseRequest,
        HttpServletRequest request,
        HttpServletResponse response,
        int code,
        String message)
        throws IOException {
      if (development && isLoopback(request.getRemoteAddr())) {
        // Development, and the developer's own machine: the exception and its stack trace.
        super.generateAcceptableResponse(baseRequest, request, response, code, message);
        return;
      }
      // The ee8 page lists the exception chain from this attribute with no switch to turn it off.
      request.removeAttribute(RequestDispatcher.ERROR_EXCEPTION);
      super.generateAcceptableResponse(
          baseRequest, request, response, code, WebappDefaults.safeReason(code));
    }

    private static boolean isLoopback(String address) {
      java.net.InetAddress parsed = IpLiterals.parse(address);
      return parsed != null && parsed.isLoopbackAddress();
    }
  }
}
