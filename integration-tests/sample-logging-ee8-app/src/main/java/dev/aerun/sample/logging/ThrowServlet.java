package dev.aerun.sample.logging;

import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Throws, so Jetty logs the exception (and answers 500). */
@WebServlet("/throw")
public class ThrowServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    throw new IllegalStateException("sample logging failure " + request.getParameter("id"));
  }
}
