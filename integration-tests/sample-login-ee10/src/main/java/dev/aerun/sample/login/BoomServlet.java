package dev.aerun.sample.login;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Fails every request, with a message only a developer may see on the error page. */
public class BoomServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    throw new IllegalStateException("dev-only detail");
  }
}
