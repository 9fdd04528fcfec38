package dev.aerun.sample.apis;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A cron job's target: records, under {@code cron-ID}, the {@code X-AppEngine-Cron} header it
 * arrived with and whether the runtime took the request for a cron request (it does only for a
 * trusted peer).
 */
@WebServlet("/cron/record")
public class CronServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    Seen.TASKS.put(
        "cron-" + request.getParameter("id"),
        "method="
            + request.getMethod()
            + " cron="
            + request.getHeader("X-AppEngine-Cron")
            + " trustedCron="
            + request.getAttribute("com.google.appengine.request.cron"));
    response.setStatus(200);
  }
}
