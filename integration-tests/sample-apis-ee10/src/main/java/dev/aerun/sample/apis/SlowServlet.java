package dev.aerun.sample.apis;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Answers after {@code ms} milliseconds: a URL Fetch target slower than a call's deadline. */
@WebServlet("/slow")
public class SlowServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    try {
      Thread.sleep(Long.parseLong(request.getParameter("ms")));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    response.setContentType("text/plain");
    response.getWriter().print("slow answer");
  }
}
