package dev.aerun.sample.initializer;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Answers with what the initializer set up, or "none". */
public class HelloServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain");
    Object set = getServletContext().getAttribute("sample.initializer");
    response.getWriter().print("initializer: " + (set == null ? "none" : set));
  }
}
