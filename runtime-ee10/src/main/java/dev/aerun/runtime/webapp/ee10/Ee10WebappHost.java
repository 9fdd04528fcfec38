package dev.aerun.runtime.webapp.ee10;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.security.AccessCheck;
import dev.aerun.runtime.webapp.EeWebapp;
import dev.aerun.runtime.webapp.WebappDefaults;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappSpec;
import org.eclipse.jetty.ee10.servlet.ServletHandler;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;

/**
 * {@code jakarta.servlet} apps on Jetty's ee10 environment; the steps are {@link
 * EeWebapp#configure}'s. One source for every EE: the ee8 and ee11 hosts are generated from this
 * file at build time (see {@code build/source-transform.xml}), so it names only what their Jetty
 * environments share, and asks {@link Ee10Jetty} (each EE has its own) where they differ.
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
    return WebappDefaults.withContextClassLoader(
        jettyLoader,
        () ->
            EeWebapp.configure(
                new AppEngineWebAppContext(spec.jsp(), spec.deferredTasks()),
                spec,
                EeVersion.EE10,
                jettyLoader));
  }

  @Override
  public AccessCheck accessCheck(Handler webapp) {
    AppEngineSecurityHandler security = Ee10Jetty.securityHandler(webapp);
    if (security == null) {
      throw new IllegalStateException("not a webapp of this host: " + webapp);
    }
    return security.accessCheck();
  }

  @Override
  public boolean mapsPath(Handler webapp, String path) {
    ServletHandler servlets = Ee10Jetty.servletHandler(webapp);
    if (servlets == null) {
      return false;
    }
    ServletHandler.MappedServlet mapped = servlets.getMappedServlet(path);
    return mapped != null && WebappDefaults.isOwnMapping(mapped.getPathSpec());
  }
}
