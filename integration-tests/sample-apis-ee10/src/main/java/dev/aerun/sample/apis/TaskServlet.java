package dev.aerun.sample.apis;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A push task's target: records the platform's task headers it arrived with (and what the runtime
 * made of them); {@code fail=N} answers 500 to the first N tries, so that the queue retries.
 */
@WebServlet("/tasks/record")
public class TaskServlet extends HttpServlet {
  private static final AtomicInteger tries = new AtomicInteger();

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) {
    String id = request.getParameter("id");
    int fail =
        request.getParameter("fail") == null ? 0 : Integer.parseInt(request.getParameter("fail"));
    String seen =
        "queue="
            + request.getHeader("X-AppEngine-QueueName")
            + " task="
            + request.getHeader("X-AppEngine-TaskName")
            + " retry="
            + request.getHeader("X-AppEngine-TaskRetryCount")
            + " executions="
            + request.getHeader("X-AppEngine-TaskExecutionCount")
            + " eta="
            + (request.getHeader("X-AppEngine-TaskETA") != null)
            + " trustedQueue="
            + request.getAttribute("com.google.appengine.task.queue_name")
            + " body="
            + request.getParameter("payload");
    if (fail > 0 && tries.incrementAndGet() <= fail) {
      Seen.TASKS.put(id + "-failed", seen);
      response.setStatus(500);
      return;
    }
    Seen.TASKS.put(id, seen);
    response.setStatus(200);
  }
}
