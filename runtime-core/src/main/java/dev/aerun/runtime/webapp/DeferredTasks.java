package dev.aerun.runtime.webapp;

import java.util.List;

/**
 * The platform's path for {@code DeferredTask}s, {@code /_ah/queue/__deferred__}, served as App
 * Engine's runtime serves it for an app with {@code <app-engine-apis>}: by the SDK's own {@code
 * DeferredTaskServlet} (the app's copy, from its class loader), for the {@code admin} role only
 * (which trusted task requests have), unless the app maps that path itself.
 */
public final class DeferredTasks {
  private DeferredTasks() {}

  /** The path the SDK's {@code DeferredTask}s are queued to. */
  public static final String PATH = "/_ah/queue/__deferred__";

  /** The servlet's name in the webapp. */
  public static final String SERVLET_NAME = "_ah_queue_deferred";

  /** Where each SDK generation keeps the servlet: jakarta (4.x), ee10 (2.x), javax. */
  private static final List<String> CLASSES =
      List.of(
          "com.google.apphosting.utils.servlet.jakarta.DeferredTaskServlet",
          "com.google.apphosting.utils.servlet.ee10.DeferredTaskServlet",
          "com.google.apphosting.utils.servlet.DeferredTaskServlet");

  /**
   * The name of the SDK's servlet in {@code appLoader} that is a {@code servletType} (the EE's
   * {@code Servlet} interface), or null when the app bundles none.
   */
  public static String servletClass(ClassLoader appLoader, Class<?> servletType) {
    for (String name : CLASSES) {
      try {
        if (servletType.isAssignableFrom(Class.forName(name, false, appLoader))) {
          return name;
        }
      } catch (ClassNotFoundException | LinkageError e) {
        // not this generation of the SDK
      }
    }
    return null;
  }
}
