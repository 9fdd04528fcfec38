package dev.aerun.sample.statics;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * Uses the session of an app without sessions: {@code /session/store} lets the failure escape,
 * {@code /session/try} reports what the app sees.
 */
@WebServlet("/session/*")
public class SessionServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    if ("/store".equals(request.getPathInfo())) {
      request.getSession().setAttribute("n", 1);
      response.getWriter().println("stored");
      return;
    }
    StringBuilder out = new StringBuilder();
    out.append("before=").append(request.getSession(false)).append('\n');
    HttpSession session = request.getSession();
    out.append("session=").append(session != null).append('\n');
    out.append("read=").append(session.getAttribute("n")).append('\n');
    try {
      session.setAttribute("n", 1);
      out.append("write=ok\n");
    } catch (IllegalStateException e) {
      out.append("write=").append(e.getMessage()).append('\n');
    }
    response.getWriter().print(out);
  }
}
