package dev.aerun.sample.fragment;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Declared only in this jar's META-INF/web-fragment.xml, so it answers only if fragments work. */
public class FragmentServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print("Hello from web-fragment (EE8)");
  }
}
