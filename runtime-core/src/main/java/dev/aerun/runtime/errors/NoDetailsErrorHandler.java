package dev.aerun.runtime.errors;

import dev.aerun.runtime.dev.DeveloperHandler;
import java.io.IOException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Attributes;
import org.eclipse.jetty.util.Callback;

/**
 * The server's error page: the status code and its standard reason only. Never a stack trace, an
 * exception's message or its causes, whatever produced the error (a limit, a parse failure, an app
 * exception that reached the server), so internals never leak to clients.
 *
 * <p>The webapps' error handlers (which also honour the app's {@code <error-page>}s) follow the
 * same policy through {@link #hideDetails} and {@link #showsDetails}, with one exception: a
 * development runtime shows the developer at this machine the exception and its stack trace.
 */
public final class NoDetailsErrorHandler extends ErrorHandler {
  public NoDetailsErrorHandler() {
    hideDetails(this, false);
  }

  /**
   * Makes {@code handler}'s pages carry no cause, no message in the title and no origin, and stack
   * traces only if {@code stacks}.
   */
  public static void hideDetails(ErrorHandler handler, boolean stacks) {
    handler.setShowStacks(stacks);
    handler.setShowCauses(false);
    handler.setShowMessageInTitle(false);
    handler.setShowOrigin(false);
  }

  /**
   * Whether an error page for {@code request} may carry the exception and its details: only in
   * development, and only for the developer at this machine ({@link DeveloperHandler}: a loopback
   * client naming a loopback host).
   */
  public static boolean showsDetails(boolean development, Attributes request) {
    return development && DeveloperHandler.isDeveloper(request);
  }

  /** The only text an error response may carry otherwise: the standard reason of its status. */
  public static String safeReason(int status) {
    return HttpStatus.getMessage(status);
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback)
      throws IOException {
    // Replace whatever message Jetty or the app gave by the standard reason phrase.
    super.generateResponse(request, response, code, safeReason(code), null, callback);
  }
}
