package dev.aerun.sample;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A streamed answer: {@code /stream?id=X} writes a first part (1 KiB of text), flushes it, and
 * writes the second only once {@code /stream?release=X} came (or after 30 s). A client that reads
 * the first part before it asks for the release proves that a flush reaches it.
 */
@WebServlet("/stream")
public class StreamServlet extends HttpServlet {
  private static final Map<String, CountDownLatch> WAITING = new ConcurrentHashMap<>();

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    String release = request.getParameter("release");
    if (release != null) {
      CountDownLatch latch = WAITING.remove(release);
      if (latch != null) {
        latch.countDown();
      }
      response.getWriter().print(latch != null ? "released" : "nothing to release");
      return;
    }
    CountDownLatch latch =
        WAITING.computeIfAbsent(request.getParameter("id"), id -> new CountDownLatch(1));
    ServletOutputStream out = response.getOutputStream();
    out.write("first part of a streamed answer\n".repeat(32).getBytes(StandardCharsets.UTF_8));
    out.flush();
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    out.write("second part\n".getBytes(StandardCharsets.UTF_8));
  }
}
