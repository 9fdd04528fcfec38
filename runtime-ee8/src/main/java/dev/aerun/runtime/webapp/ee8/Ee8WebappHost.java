package dev.aerun.runtime.webapp.ee8;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import dev.aerun.runtime.webapp.AppInitializers;
import dev.aerun.runtime.webapp.EeWebapp;
import dev.aerun.runtime.webapp.WebappDefaults;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import javax.servlet.DispatcherType;
import javax.servlet.RequestDispatcher;
import javax.servlet.ServletContainerInitializer;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee8.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee8.nested.ContextHandler;
import org.eclipse.jetty.ee8.nested.Request;
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
 * {@code javax.servlet} apps on Jetty's ee8 environment; the steps are {@link
 * EeWebapp#configure}'s. An ee8 context is not a core handler itself; its core counterpart is what
 * goes into the server.
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
    return WebappDefaults.withContextClassLoader(
        jettyLoader,
        () -> EeWebapp.configure(new Webapp(spec.jsp()), spec, EeVersion.EE8, jettyLoader));
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

  /**
   * Jetty's webapp with the EE8 side of {@link EeWebapp}; without JSP it drops the {@code jsp}
   * servlet of Jetty's default descriptor, as the EE10 host does.
   */
  private static final class Webapp extends WebAppContext implements EeWebapp {
    private final boolean jsp;

    Webapp(boolean jsp) {
      this.jsp = jsp;
    }

    @Override
    public void useOwnClassLoader(ClassLoader parent, Optional<Path> jar) throws IOException {
      WebAppClassLoader loader = new WebAppClassLoader(parent, this);
      for (Path each : jar.stream().toList()) {
        loader.addClassPath(each.toString());
      }
      setClassLoader(loader);
    }

    @Override
    public void hideClasses(String[] patterns) {
      addServerClassMatcher(new ClassMatcher(patterns));
    }

    @Override
    public org.eclipse.jetty.server.handler.ContextHandler coreContext() {
      return getCoreContextHandler();
    }

    @Override
    public void addServletFeatures(WebappSpec spec) {
      addConfiguration(new AnnotationConfiguration());
      if (jsp) {
        addConfiguration(new JspConfiguration());
      }
      setErrorHandler(new ErrorPages(spec.development()));
      setSecurityHandler(new AppEngineSecurityHandler(spec.login()));
      if (!spec.sessions().isEnabled()) {
        addFilter(
            new FilterHolder(new DisabledSessionsFilter(spec.sessions())),
            "/*",
            EnumSet.allOf(DispatcherType.class));
        return;
      }
      getSessionHandler()
          .setSessionCache(spec.sessions().newCache(getSessionHandler().getSessionManager()));
    }

    @Override
    protected void startWebapp() throws Exception {
      // Before any initializer runs: Jetty skips one that fails to load and goes on without it.
      AppInitializers.check(getClassLoader(), ServletContainerInitializer.class.getName());
      if (!jsp) {
        ServletHandler servlets = getServletHandler();
        servlets.setServlets(
            WebappDefaults.withoutJsp(
                servlets.getServlets(), ServletHolder::getName, ServletHolder[]::new));
        servlets.setServletMappings(
            WebappDefaults.withoutJsp(
                servlets.getServletMappings(),
                ServletMapping::getServletName,
                ServletMapping[]::new));
      }
      super.startWebapp();
    }
  }

  /** Honours {@code <error-page>} mappings; otherwise {@link NoDetailsErrorHandler}'s policy. */
  private static final class ErrorPages extends ErrorPageErrorHandler {
    private final boolean development;

    ErrorPages(boolean development) {
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
      if (NoDetailsErrorHandler.showsDetails(development, request.getRemoteAddr())) {
        super.generateAcceptableResponse(baseRequest, request, response, code, message);
        return;
      }
      // The ee8 page lists the exception chain from this attribute with no switch to turn it off.
      request.removeAttribute(RequestDispatcher.ERROR_EXCEPTION);
      super.generateAcceptableResponse(
          baseRequest, request, response, code, NoDetailsErrorHandler.safeReason(code));
    }
  }
}
