package dev.aerun.runtime.statics;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.StaticErrorHandler;
import dev.aerun.runtime.security.AccessCheck;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
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
   * files are found in the webapp's base resource once it has started (so a WAR is read where it
   * was unpacked), and kept in memory once read (see {@link #wrap(AppEngineWebXml, Path, Handler,
   * boolean)}).
   *
   * @param descriptor the app's {@code appengine-web.xml}
   * @param webapp the webapp's context handler (or a handler containing it)
   */
  public static Handler.Wrapper wrap(AppEngineWebXml descriptor, Handler webapp) {
    return wrap(descriptor, null, webapp, false);
  }

  /**
   * As {@link #wrap(AppEngineWebXml, Handler)}, with the files read from {@code appRoot} (an
   * exploded app directory); null means the webapp's base resource.
   */
  public static Handler.Wrapper wrap(AppEngineWebXml descriptor, Path appRoot, Handler webapp) {
    return wrap(descriptor, appRoot, webapp, false);
  }

  /**
   * As {@link #wrap(AppEngineWebXml, Path, Handler)}.
   *
   * @param development false (production): a static file's content, {@code ETag} and precompressed
   *     variant are read once and kept in memory, within a bound taken from the heap, as the static
   *     set is fixed at start-up; true (development, files edited while the app runs): every
   *     request reads the file as it is now
   */
  public static Handler.Wrapper wrap(
      AppEngineWebXml descriptor, Path appRoot, Handler webapp, boolean development) {
    return wrap(descriptor, appRoot, webapp, development, AccessCheck::none);
  }

  /**
   * As {@link #wrap(AppEngineWebXml, Path, Handler, boolean)}, for a webapp with security
   * constraints: a static file is served only to whom its path's constraint lets through ({@code
   * access}, asked once the webapp has started); anyone else gets the webapp's answer (a redirect
   * to the login URL or to {@code https}, or 403), as the platform's static handlers do with the
   * {@code login:} and {@code secure:} it makes from the same constraints.
   */
  public static Handler.Wrapper wrap(
      AppEngineWebXml descriptor,
      Path appRoot,
      Handler webapp,
      boolean development,
      Supplier<AccessCheck> access) {
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(webapp, "webapp");
    Map<String, String> errorHandlers = new LinkedHashMap<>();
    for (StaticErrorHandler handler : descriptor.staticErrorHandlers()) {
      errorHandlers.put(handler.errorCode().orElse(ErrorPages.DEFAULT), handler.file());
    }
    return new StaticFilesHandler(
        StaticFileRules.from(descriptor),
        appRoot,
        errorHandlers,
        webapp,
        development ? 0 : StaticFilesHandler.cacheBytesForHeap(Runtime.getRuntime().maxMemory()),
        access);
  }
}
