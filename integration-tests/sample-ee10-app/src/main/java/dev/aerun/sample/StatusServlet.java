package dev.aerun.sample;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Answers with the status {@code ?code=N}: through {@code sendError} (the container's error page,
 * with {@code &message=} if given), or with {@code &body=true} by setting it and writing a small
 * body of the app's own; {@code &te=CODING} then also sets {@code Transfer-Encoding} and the body's
 * {@code Content-Length} itself.
 */
@WebServlet("/status")
public class StatusServlet extends HttpServlet {
  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    int code = Integer.parseInt(request.getParameter("code"));
    if (Boolean.parseBoolean(request.getParameter("body"))) {
      response.setStatus(code);
      response.setContentType("text/plain;charset=utf-8");
      String body = "status " + code + " from the app";
      String transferEncoding = request.getParameter("te");
      if (transferEncoding != null) {
        response.setHeader("Transfer-Encoding", transferEncoding);
        response.setContentLength(body.length());
      }
      response.getWriter().print(body);
      return;
    }
    String message = request.getParameter("message");
    if (message == null) {
      response.sendError(code);
    } else {
      response.sendError(code, message);
    }
  }
}
