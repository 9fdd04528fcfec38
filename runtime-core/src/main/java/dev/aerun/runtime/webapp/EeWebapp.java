package dev.aerun.runtime.webapp;

import dev.aerun.appengine.descriptor.EeVersion;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.jetty.server.handler.ContextHandler;

/**
 * A webapp context of one EE version's Jetty as {@link #configure} sees it: the one place the steps
 * every {@link WebappHost} takes are written. Each EE host implements it with a subclass of its
 * Jetty's {@code WebAppContext}, which already has the setters below (they keep Jetty's names and
 * meaning); the other methods are where the EE versions really differ.
 */
public interface EeWebapp {

  void setExtraClasspath(String classpath) throws IOException;

  void setTempDirectory(File directory);

  void setWar(String war);

  void setContextPath(String contextPath);

  void setThrowUnavailableOnStartupException(boolean throwUnavailable);

  void setParentLoaderPriority(boolean parentLoaderPriority);

  String setInitParameter(String name, String value);

  Object setAttribute(String name, Object value);

  void setMaxFormContentSize(int maxSize);

  void setMaxFormKeys(int max);

  /**
   * Gives the webapp a class loader of its own whose parent is {@code parent}, with {@code jar} (if
   * any) on its class path ahead of the app's.
   */
  void useOwnClassLoader(ClassLoader parent, Optional<Path> jar) throws IOException;

  /** Hides the classes {@code patterns} match (Jetty's class-matcher syntax) from the app. */
  void hideClasses(String[] patterns);

  /** The core context handler of this webapp: what goes into the server. */
  ContextHandler coreContext();

  /**
   * Adds what the servlet environment brings to this webapp for {@code spec}: annotation scanning
   * (and JSP if {@link WebappSpec#jsp()}), the error handler ({@link
   * dev.aerun.runtime.errors.NoDetailsErrorHandler}'s policy, with the app's error pages), App
   * Engine's login ({@link dev.aerun.runtime.security}) and sessions ({@link
   * dev.aerun.runtime.sessions.WebappSessions}).
   */
  void addServletFeatures(WebappSpec spec);

  /**
   * Sets up {@code webapp} for the app {@code spec} describes on {@code version}: the same steps,
   * in the same order, for every EE version. {@code jettyLoader} is the parent of the app's class
   * loader: the app sees the servlet API, and Jetty scans the container's JSTL jar, through it.
   * Returns the core handler to add to the server.
   *
   * @throws UncheckedIOException if the temp directory or the extra class path cannot be set up
   */
  static ContextHandler configure(
      EeWebapp webapp, WebappSpec spec, EeVersion version, ClassLoader jettyLoader) {
    try {
      // Before the class loader: it takes the extra class path when it is made.
      if (!spec.extraClasspath().isEmpty()) {
        webapp.setExtraClasspath(WebappDefaults.extraClasspath(spec));
      }
      // The runtime's SLF4J provider for the app (see RuntimeLibraries) goes on the app's own
      // class path, not its parent's.
      webapp.useOwnClassLoader(jettyLoader, RuntimeLibraries.slf4jProviderFor(spec.appLocation()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    webapp.setTempDirectory(WebappDefaults.prepare(spec, version));
    webapp.setWar(spec.appLocation().toString());
    webapp.setContextPath(spec.contextPath());
    webapp.setThrowUnavailableOnStartupException(WebappDefaults.THROW_UNAVAILABLE_ON_STARTUP);
    webapp.setParentLoaderPriority(WebappDefaults.PARENT_LOADER_PRIORITY);
    WebappDefaults.initParameters().forEach(webapp::setInitParameter);
    webapp.setMaxFormContentSize(WebappDefaults.MAX_FORM_CONTENT_SIZE);
    webapp.setMaxFormKeys(WebappDefaults.MAX_FORM_KEYS);
    WebappDefaults.contextAttributes(spec, version).forEach(webapp::setAttribute);
    // The app sees the servlet environment, not the runtime's libraries (see RuntimeLibraries).
    webapp.hideClasses(RuntimeLibraries.hiddenClasses());
    WebappDefaults.restrictAliases(webapp.coreContext());
    webapp.addServletFeatures(spec);
    return webapp.coreContext();
  }
}
