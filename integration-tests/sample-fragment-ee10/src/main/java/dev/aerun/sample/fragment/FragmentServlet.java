package dev.aerun.sample.fragment;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Declared only in this jar's META-INF/web-fragment.xml, so it answers only if fragments work. */
public class FragmentServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print("Hello from web-fragment (EE10)");
  }
}
