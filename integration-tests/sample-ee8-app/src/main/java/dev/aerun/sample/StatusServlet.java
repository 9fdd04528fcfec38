package dev.aerun.sample;

import java.io.IOException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Answers with the status {@code ?code=N}: through {@code sendError} (the container's error page,
 * with {@code &message=} if given), or with {@code &body=true} by setting it and writing a small
 * body of the app's own.
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
      response.getWriter().print("status " + code + " from the app");
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
