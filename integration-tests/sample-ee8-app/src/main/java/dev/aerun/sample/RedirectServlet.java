package dev.aerun.sample;

import java.io.IOException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Redirects to {@code ?to=}: through {@code sendRedirect} (302; a relative target is resolved by
 * the container), or with {@code &status=N} by setting that status and a {@code Location} header
 * verbatim, so the parity tests see both how the container builds a Location and what the app set.
 */
@WebServlet("/redirect")
public class RedirectServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String to = request.getParameter("to");
    if (to == null) {
      response.sendError(HttpServletResponse.SC_BAD_REQUEST);
      return;
    }
    String status = request.getParameter("status");
    if (status == null) {
      response.sendRedirect(to);
      return;
    }
    response.setStatus(Integer.parseInt(status));
    response.setHeader("Location", to);
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print("moved to " + to);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    doGet(request, response);
  }
}
