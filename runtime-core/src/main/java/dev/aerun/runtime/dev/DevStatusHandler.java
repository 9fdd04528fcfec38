package dev.aerun.runtime.dev;

import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers {@code GET /_ah/dev} for the developer at this machine ({@link DeveloperHandler}) with
 * the status page, the first page of the development console ({@link DevPage}): what {@code page}
 * returns at that moment, as text; every other request, and this path from anyone else, goes on to
 * the app unchanged.
 */
public final class DevStatusHandler extends Handler.Wrapper {
  /** The status page's path. */
  public static final String PATH = "/_ah/dev";

  private final Supplier<String> page;

  public DevStatusHandler(Supplier<String> page) {
    this.page = page;
  }

  public DevStatusHandler(Supplier<String> page, Handler app) {
    this(page);
    setHandler(app);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!PATH.equals(Request.getPathInContext(request))
        || !"GET".equals(request.getMethod())
        || !DeveloperHandler.isDeveloper(request)) {
      return super.handle(request, response, callback);
    }
    DevPage.write(
        response,
        callback,
        200,
        DevPage.document(DevPage.TITLE, PATH, "<pre>" + DevPage.escape(page.get()) + "</pre>"));
    return true;
  }
}
