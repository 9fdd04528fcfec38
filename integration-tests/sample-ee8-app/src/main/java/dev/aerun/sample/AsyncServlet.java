package dev.aerun.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import javax.servlet.AsyncContext;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Answers from another thread after the request thread has returned. The answer names both threads;
 * with {@code ?quiet=true} only the worker, whose name does not change from request to request.
 */
@WebServlet(urlPatterns = "/async", asyncSupported = true)
public class AsyncServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    AsyncContext async = request.startAsync();
    String requestThread =
        Boolean.parseBoolean(request.getParameter("quiet"))
            ? "a request thread"
            : Thread.currentThread().getName();
    new Thread(
            () -> {
              try {
                response.setContentType("text/plain;charset=utf-8");
                response
                    .getWriter()
                    .print(
                        "async done: started on "
                            + requestThread
                            + ", completed on "
                            + Thread.currentThread().getName());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              } finally {
                async.complete();
              }
            },
            "sample-async-worker")
        .start();
  }
}
