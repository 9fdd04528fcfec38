package dev.aerun.runtime.errors;

import java.io.IOException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The server's error page: the status code and its standard reason only. Never a stack trace, an
 * exception's message or its causes, whatever produced the error (a limit, a parse failure, an app
 * exception that reached the server), so internals never leak to clients.
 */
public class NoDetailsErrorHandler extends ErrorHandler {
  public NoDetailsErrorHandler() {
    setShowStacks(false);
    setShowCauses(false);
    setShowMessageInTitle(false);
    setShowOrigin(false);
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
    super.generateResponse(request, response, code, HttpStatus.getMessage(code), null, callback);
  }
}
