package dev.aerun.sample;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The app's own warm-up logic at {@code /_ah/warmup}: the runtime sends the platform's warm-up
 * request here instead of answering it itself. Counts how often it ran.
 */
@WebServlet("/_ah/warmup")
public class WarmupServlet extends HttpServlet {
  private static final AtomicInteger RUNS = new AtomicInteger();

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print("warmed up by the app " + RUNS.incrementAndGet());
  }
}
