package it;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The sample servlet of the EE10 invoker projects (their {@code sourceDirectory}): annotated, and
 * the apps have no web.xml.
 */
@WebServlet("/hello")
public class HelloServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    response
        .getWriter()
        .print(
            "Hello EE10 from aerun in "
                + System.getProperty("com.google.appengine.runtime.environment"));
  }
}
