package dev.aerun.runtime.webapp;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.security.AccessCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.eclipse.jetty.server.Handler;

/**
 * Hosts one webapp on the Jetty environment of one EE version. This is the only place the EE8 /
 * EE10 / EE11 difference shows; everything around the webapp works on core Jetty {@link Handler}s.
 * Implementations are {@link ServiceLoader} providers with a public no-arg constructor; get one
 * with {@link #load}.
 *
 * <p>The created context behaves the same for every EE version:
 *
 * <ul>
 *   <li>it deploys when the server starts: listeners and load-on-startup servlets initialise then;
 *   <li>if the app fails to start (a listener, filter or servlet init throws), {@code
 *       Server.start()} throws instead of leaving a half-up server;
 *   <li>error responses never carry stack traces, exception messages or servlet names, while the
 *       app's own {@code <error-page>} mappings still apply;
 *   <li>class loading is parent-last (the servlet spec default), and the webapp's class loader has
 *       the loader of the EE's Jetty classes as its parent;
 *   <li>annotations, {@code web-fragment.xml} in {@code WEB-INF/lib}, JSP with JSTL, welcome files,
 *       static content, async and multipart work as on a stock Jetty 12.
 * </ul>
 */
public interface WebappHost {

  /**
   * Finds the host for {@code version} among the {@link ServiceLoader} providers {@code loader}
   * sees. Each EE version's host lives in its own module ({@code runtime-ee8}, {@code
   * runtime-ee10}, {@code runtime-ee11}), usually behind its own class loader, because the EE JSP
   * stacks cannot share one classpath.
   *
   * @throws IllegalStateException if no provider hosts {@code version}; the message names the
   *     versions that were found
   */
  static WebappHost load(EeVersion version, ClassLoader loader) {
    List<EeVersion> found = new ArrayList<>();
    for (WebappHost host : ServiceLoader.load(WebappHost.class, loader)) {
      if (host.eeVersion() == version) {
        return host;
      }
      found.add(host.eeVersion());
    }
    throw new IllegalStateException(
        "No webapp host for "
            + version
            + " in class loader "
            + loader.getName()
            + "; hosts found: "
            + (found.isEmpty() ? "none" : found));
  }

  /** The EE version this host deploys. */
  EeVersion eeVersion();

  /**
   * Creates the context handler for the app described by {@code spec}, not yet started. Add it to a
   * {@link org.eclipse.jetty.server.Server} (directly or inside other handlers); it deploys when
   * the server starts.
   *
   * @throws java.io.UncheckedIOException if the temp directory cannot be created
   */
  Handler createWebapp(WebappSpec spec);

  /**
   * The started {@code webapp}'s security constraints, for what the runtime serves in front of it
   * (its static files), applied as its servlets get them (see {@link
   * dev.aerun.runtime.security.PathConstraints}).
   *
   * @throws IllegalStateException if {@code webapp} was not made by this host
   */
  AccessCheck accessCheck(Handler webapp);

  /**
   * Whether the started {@code webapp} (made by {@link #createWebapp}) maps {@code path} to a
   * servlet of its own by an exact or prefix mapping: not its default servlet ({@code /}) nor an
   * extension mapping ({@code *.jsp}).
   */
  boolean mapsPath(Handler webapp, String path);
}
