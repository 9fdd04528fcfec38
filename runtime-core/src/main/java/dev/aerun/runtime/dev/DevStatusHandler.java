package dev.aerun.runtime.dev;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers {@code GET /_ah/dev} for the developer at this machine ({@link DeveloperHandler}) with a
 * plain-text status page (what {@code page} returns at that moment); every other request, and this
 * path from anyone else, goes on to the app unchanged.
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
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(true, StandardCharsets.UTF_8.encode(page.get()), callback);
    return true;
  }
}
