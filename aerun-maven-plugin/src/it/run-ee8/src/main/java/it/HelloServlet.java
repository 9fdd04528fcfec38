package it;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Declared in web.xml. */
public class HelloServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print("Hello EE8 from aerun, " + System.getenv("GREETING_TARGET"));
  }
}
