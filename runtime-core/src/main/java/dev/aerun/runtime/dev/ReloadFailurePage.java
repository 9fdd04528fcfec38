package dev.aerun.runtime.dev;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The 500 page a development server answers while its last reload failed: the problem and its stack
 * trace for the developer at this machine ({@link DeveloperHandler}), the status reason alone for
 * anyone else.
 */
final class ReloadFailurePage {
  private ReloadFailurePage() {}

  static void write(Request request, Response response, Callback callback, Throwable failure) {
    response.setStatus(500);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    if (!DeveloperHandler.isDeveloper(request)) {
      Response.writeError(request, response, callback, 500);
      return;
    }
    StringWriter trace = new StringWriter();
    failure.printStackTrace(new PrintWriter(trace));
    String html =
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Reload failed</title></head>"
            + "<body><h1>500: the app failed to reload</h1>\n<p>"
            + escape(String.valueOf(failure.getMessage()))
            + "</p>\n<p>Fix it and save: the next change reloads the app.</p>\n<pre>"
            + escape(trace.toString())
            + "</pre></body></html>\n";
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
    response.write(true, StandardCharsets.UTF_8.encode(html), callback);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
