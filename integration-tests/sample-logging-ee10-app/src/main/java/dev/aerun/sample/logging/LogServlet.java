package dev.aerun.sample.logging;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.logging.Logger;
import org.slf4j.LoggerFactory;

/** Logs one line through java.util.logging and one through SLF4J, naming {@code ?id=}. */
@WebServlet("/log")
public class LogServlet extends HttpServlet {
  private static final Logger JUL = Logger.getLogger(LogServlet.class.getName());
  private static final org.slf4j.Logger SLF4J = LoggerFactory.getLogger(LogServlet.class);

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String id = request.getParameter("id");
    JUL.info("jul line " + id);
    SLF4J.warn("slf4j line {}", id);
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print("logged " + id);
  }
}
