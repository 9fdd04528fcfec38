package dev.aerun.bench.bare;

import java.nio.file.Path;
import org.eclipse.jetty.ee8.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee8.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;

/**
 * A plain ee8 webapp: Jetty's default configurations, plus annotations as the runtime has. Its own
 * class, so that the ee10 peer never loads an ee8 class (and the reverse).
 */
final class Ee8 {
  private Ee8() {}

  static Handler webapp(Path war, Path temp) {
    WebAppContext webapp = new WebAppContext();
    webapp.setWar(war.toString());
    webapp.setContextPath("/");
    webapp.setTempDirectory(temp.toFile());
    webapp.setThrowUnavailableOnStartupException(true);
    webapp.addConfiguration(new AnnotationConfiguration());
    return webapp.getCoreContextHandler();
  }
}
