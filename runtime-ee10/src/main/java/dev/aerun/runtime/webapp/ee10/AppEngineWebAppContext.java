package dev.aerun.runtime.webapp.ee10;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.webapp.AppInitializers;
import dev.aerun.runtime.webapp.DeferredTasks;
import dev.aerun.runtime.webapp.EeWebapp;
import dev.aerun.runtime.webapp.WebappDefaults;
import dev.aerun.runtime.webapp.WebappSpec;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletContainerInitializer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import org.eclipse.jetty.ee.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.servlet.ServletMapping;
import org.eclipse.jetty.ee10.webapp.JspConfiguration;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.handler.ContextHandler;

/**
 * Jetty's webapp with the EE10 side of {@link EeWebapp}, as {@link Ee10WebappHost} makes it; named
 * for Jetty's log lines about it. Without JSP (see {@link dev.aerun.runtime.webapp.JspUsage}) it
 * drops the {@code jsp} servlet Jetty's default descriptor declares (and loads on start-up), so a
 * {@code *.jsp} path is the default servlet's, which answers 404 for a file the app does not have.
 */
final class AppEngineWebAppContext extends WebAppContext implements EeWebapp {
  private final boolean jsp;
  private final boolean deferredTasks;

  AppEngineWebAppContext(boolean jsp, boolean deferredTasks) {
    this.jsp = jsp;
    this.deferredTasks = deferredTasks;
  }

  @Override
  public void useOwnClassLoader(ClassLoader parent, Optional<Path> jar) throws IOException {
    WebAppClassLoader loader = new WebAppClassLoader(parent, this);
    if (jar.isPresent()) {
      loader.addClassPath(jar.get().toString());
    }
    setClassLoader(loader);
  }

  @Override
  public void hideClasses(String[] patterns) {
    Ee10Jetty.hideClasses(this, patterns);
  }

  @Override
  public ContextHandler coreContext() {
    return Ee10Jetty.coreContext(this);
  }

  @Override
  public void addServletFeatures(WebappSpec spec) {
    // Added on top of the ServiceLoader defaults so they are on whatever the classpath discovers.
    addConfiguration(new AppAnnotationConfiguration());
    if (jsp) {
      addConfiguration(new JspConfiguration());
      // In place of Jetty's (left out by WebappDefaults.contextAttributes).
      addServletContainerInitializer(new LazyTldJasperInitializer(EeVersion.EE10));
    }
    setErrorHandler(Ee10Jetty.errorPages(spec.development()));
    setSecurityHandler(new AppEngineSecurityHandler(spec.login()));
    if (spec.sessions().isEnabled()) {
      Ee10Jetty.cookieOnlySessions(this);
      getSessionHandler().setSessionCache(spec.sessions().newCache(Ee10Jetty.sessions(this)));
    } else {
      // A first filter hands the app an empty session instead (see WebappSessions).
      Ee10Jetty.withoutSessions(this);
      DisabledSessionsFilter filter = new DisabledSessionsFilter(spec.sessions());
      addFilter(new FilterHolder(filter), "/*", EnumSet.allOf(DispatcherType.class));
    }
  }

  @Override
  protected void startWebapp() throws Exception {
    // Before any initializer runs: Jetty skips one that fails to load and goes on without it.
    AppInitializers.check(getClassLoader(), ServletContainerInitializer.class.getName());
    if (!jsp) {
      ServletHandler servlets = getServletHandler();
      servlets.setServletMappings(
          WebappDefaults.withoutJsp(
              servlets.getServletMappings(),
              ServletMapping::getServletName,
              ServletMapping[]::new));
      servlets.setServlets(
          WebappDefaults.withoutJsp(
              servlets.getServlets(), ServletHolder::getName, ServletHolder[]::new));
    }
    if (deferredTasks) {
      serveDeferredTasks();
    }
    ServletHolder[] holders = getServletHandler().getServlets();
    for (ServletHolder holder : holders == null ? new ServletHolder[0] : holders) {
      if (WebappDefaults.DEFAULT_SERVLET.equals(holder.getName())) {
        // Jetty wraps a servlet that is not async-supported, and a wrapped default servlet takes
        // every welcome name for another servlet's mapping (WELCOME_SERVLETS_PARAMETER).
        holder.setAsyncSupported(true);
      }
    }
    super.startWebapp();
  }

  /** The SDK's servlet at {@link DeferredTasks#PATH}, admins only, unless the app maps it. */
  private void serveDeferredTasks() {
    ServletHandler servlets = getServletHandler();
    ServletMapping[] mappings = servlets.getServletMappings();
    if (mappings != null) {
      for (ServletMapping mapping : mappings) {
        for (String path : mapping.getPathSpecs()) {
          if (DeferredTasks.PATH.equals(path)) {
            return;
          }
        }
      }
    }
    String servlet = DeferredTasks.servletClass(getClassLoader(), Servlet.class);
    if (servlet != null) {
      ServletHolder holder = new ServletHolder();
      holder.setName(DeferredTasks.SERVLET_NAME);
      holder.setClassName(servlet);
      servlets.addServletWithMapping(holder, DeferredTasks.PATH);
      Ee10Jetty.adminsOnly(this, DeferredTasks.PATH);
    }
  }
}
