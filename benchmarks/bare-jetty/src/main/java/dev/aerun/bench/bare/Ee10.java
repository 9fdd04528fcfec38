package dev.aerun.bench.bare;

import java.nio.file.Path;
import org.eclipse.jetty.ee10.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;

/**
 * A plain ee10 webapp: Jetty's default configurations, plus annotations as the runtime has. The ee8
 * and ee11 ones are generated from this file (ee8's returns its context's core handler). One class
 * per EE, so that a peer never loads another EE's classes.
 */
final class Ee10 {
  private Ee10() {}

  static Handler webapp(Path war, Path temp) {
    WebAppContext webapp = new WebAppContext();
    webapp.setWar(war.toString());
    webapp.setContextPath("/");
    webapp.setTempDirectory(temp.toFile());
    webapp.setThrowUnavailableOnStartupException(true);
    webapp.addConfiguration(new AnnotationConfiguration());
    return webapp;
  }
}
