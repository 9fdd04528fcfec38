package dev.aerun.sample.failing;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A load-on-startup servlet whose {@code init} throws when {@code -Dsample.fail.at=init}. */
@WebServlet(urlPatterns = "/ok", loadOnStartup = 1)
public class FailingInitServlet extends HttpServlet {
  @Override
  public void init() throws ServletException {
    if ("init".equals(System.getProperty("sample.fail.at"))) {
      throw new ServletException("the sample servlet cannot load its configuration");
    }
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print("started");
  }
}
