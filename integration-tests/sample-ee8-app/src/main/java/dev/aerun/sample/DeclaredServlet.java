package dev.aerun.sample;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Declared in web.xml (no annotation), with an init parameter. */
public class DeclaredServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print("Declared in web.xml: " + getInitParameter("greeting"));
  }
}
