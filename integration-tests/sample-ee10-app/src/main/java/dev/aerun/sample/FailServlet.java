package dev.aerun.sample;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Throws, so web.xml's exception-type error page answers. */
@WebServlet("/fail")
public class FailServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    throw new SampleFailure("sample failure detail that must not leak");
  }

  /** The exception type mapped to an error page in web.xml. */
  public static class SampleFailure extends RuntimeException {
    public SampleFailure(String message) {
      super(message);
    }
  }
}
