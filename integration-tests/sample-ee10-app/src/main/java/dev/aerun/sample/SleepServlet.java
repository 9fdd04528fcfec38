package dev.aerun.sample;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code /sleep?ms=N}: a request that takes N ms (at most a minute), then answers {@code slept N}.
 * Shutdown, overload and deadline tests use it to hold requests in flight; {@code /sleep} without
 * {@code ms} answers {@code sleeping N}, how many such requests are sleeping now.
 */
@WebServlet("/sleep")
public class SleepServlet extends HttpServlet {
  private static final AtomicInteger SLEEPING = new AtomicInteger();

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    if (request.getParameter("ms") == null) {
      response.getWriter().print("sleeping " + SLEEPING.get());
      return;
    }
    long ms;
    try {
      ms = Math.min(60_000, Math.max(0, Long.parseLong(request.getParameter("ms"))));
    } catch (NumberFormatException e) {
      response.sendError(HttpServletResponse.SC_BAD_REQUEST);
      return;
    }
    SLEEPING.incrementAndGet();
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
      return;
    } finally {
      SLEEPING.decrementAndGet();
    }
    response.getWriter().print("slept " + ms);
  }
}
