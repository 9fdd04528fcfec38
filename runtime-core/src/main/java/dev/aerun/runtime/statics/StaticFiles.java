package dev.aerun.runtime.statics;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.server.Handler;

/**
 * Builds the handler that serves an app's static files in front of its webapp. Both serving modes
 * put it in the same place: after the request contract and the size limits, directly around the
 * webapp's context.
 *
 * <pre>{@code
 * Handler webapp = host.createWebapp(spec);
 * Handler app = StaticFiles.wrap(descriptor, webapp); // what the mode's server runs
 * }</pre>
 */
public final class StaticFiles {
  private StaticFiles() {}

  /**
   * A handler answering {@code webapp}'s static files itself and passing everything else to it. The
   * files are found in the webapp's base resource once it has started (so a WAR is read where Jetty
   * unpacked it).
   *
   * @param descriptor the app's {@code appengine-web.xml}
   * @param webapp the webapp's context handler (or a handler containing it)
   */
  public static Handler.Wrapper wrap(AppEngineWebXml descriptor, Handler webapp) {
    return wrap(descriptor, null, webapp);
  }

  /**
   * As {@link #wrap(AppEngineWebXml, Handler)}, with the files read from {@code appRoot} (an
   * exploded app directory); null means the webapp's base resource.
   */
  public static Handler.Wrapper wrap(AppEngineWebXml descriptor, Path appRoot, Handler webapp) {
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(webapp, "webapp");
    Map<String, String> errorHandlers = new LinkedHashMap<>();
    for (AppEngineWebXml.StaticErrorHandler handler : descriptor.staticErrorHandlers()) {
      errorHandlers.put(handler.errorCode().orElse(ErrorPages.DEFAULT), handler.file());
    }
    return new StaticFilesHandler(StaticFileRules.from(descriptor), appRoot, errorHandlers, webapp);
  }
}
