package dev.aerun.sample.logging;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Throws, so Jetty logs the exception (and answers 500). */
@WebServlet("/throw")
public class ThrowServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    throw new IllegalStateException("sample logging failure " + request.getParameter("id"));
  }
}
