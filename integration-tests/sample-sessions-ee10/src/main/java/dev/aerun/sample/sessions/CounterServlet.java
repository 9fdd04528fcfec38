package dev.aerun.sample.sessions;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code /counter} counts this session's visits; {@code /counter/peek} reports the session (and its
 * visits) without creating one; {@code /counter/try} reports what a write to the session does;
 * {@code /counter/linger} counts like {@code /counter}, sends the whole answer, and only then
 * returns, a second later (a request that ends late, as on a loaded instance); {@code
 * /counter/link} makes a session and shows what {@code encodeURL} and {@code encodeRedirectURL}
 * make of a link; {@code /counter/uri} shows the request URI as the app got it.
 */
@WebServlet("/counter/*")
public class CounterServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    String action = request.getPathInfo() == null ? "" : request.getPathInfo();
    switch (action) {
      case "/peek" -> {
        HttpSession existing = request.getSession(false);
        response
            .getWriter()
            .println(
                existing == null
                    ? "session=none"
                    : "session=present visits=" + existing.getAttribute("visits"));
      }
      case "/link" -> {
        request.getSession().setAttribute("visits", 1);
        response
            .getWriter()
            .println(
                "url="
                    + response.encodeURL("/counter/peek")
                    + " redirect="
                    + response.encodeRedirectURL("/counter/peek"));
      }
      case "/uri" -> response.getWriter().println("uri=" + request.getRequestURI());
      case "/try" -> {
        HttpSession session = request.getSession();
        try {
          session.setAttribute("visits", 1);
          response.getWriter().println("write=ok");
        } catch (IllegalStateException e) {
          response.getWriter().println("write=" + e.getMessage());
        }
      }
      case "/linger" -> {
        HttpSession session = request.getSession();
        Integer visits = (Integer) session.getAttribute("visits");
        visits = visits == null ? 1 : visits + 1;
        session.setAttribute("visits", visits);
        byte[] body = ("visits=" + visits + " EE10\n").getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer(); // the client has it all
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      default -> {
        HttpSession session = request.getSession();
        Integer visits = (Integer) session.getAttribute("visits");
        visits = visits == null ? 1 : visits + 1;
        session.setAttribute("visits", visits);
        response.getWriter().println("visits=" + visits + " " + "EE10");
      }
    }
  }
}
