package dev.aerun.apihost;

import com.google.appengine.api.taskqueue.dev.LocalTaskQueueCallback;
import com.google.appengine.api.urlfetch.URLFetchServicePb.URLFetchRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Runs a push task against the app: the local task queue hands over the request it built (the
 * task's method, path, body and headers with the platform's {@code X-AppEngine-QueueName,
 * -TaskName, -TaskRetryCount, -TaskExecutionCount, -TaskETA}); this sends it to the app's runtime
 * on {@code 127.0.0.1} (a loopback peer, which the development runtime trusts, with a loopback
 * {@code Host}), whatever base URL the queue computed. A status other than 2xx makes the queue
 * retry the task as its {@code queue.xml} entry says.
 *
 * <p>Made by the local task queue from its class name, hence the process-wide {@link #target}.
 */
public final class TaskDispatch implements LocalTaskQueueCallback {
  private static final long serialVersionUID = 1L;
  private static final Logger log = Logger.getLogger(TaskDispatch.class.getName());

  /** The platform's push task deadline. */
  private static final Duration TASK_DEADLINE = Duration.ofMinutes(10);

  /** Headers the JDK's client sets itself. */
  private static final Set<String> RESTRICTED =
      Set.of("host", "connection", "content-length", "expect", "upgrade", "transfer-encoding");

  private static volatile AppServer target;
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NEVER)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  /** Where tasks go from now on. */
  static void target(AppServer app) {
    target = app;
  }

  @Override
  public void initialize(Map<String, String> properties) {}

  @Override
  public int execute(URLFetchRequest task) {
    AppServer app = target;
    if (app == null || app.getPort() == 0) {
      return 503; // retried later, as the queue's retry parameters say
    }
    URI queued = URI.create(task.getUrl());
    String path =
        queued.getRawPath() == null || queued.getRawPath().isEmpty() ? "/" : queued.getRawPath();
    String query = queued.getRawQuery() == null ? "" : "?" + queued.getRawQuery();
    URI uri = URI.create("http://127.0.0.1:" + app.getPort() + path + query);
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TASK_DEADLINE);
    for (URLFetchRequest.Header header : task.getHeaderList()) {
      if (!RESTRICTED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
        request.header(header.getKey(), header.getValue());
      }
    }
    String method = task.getMethod().name();
    byte[] body = task.getPayload().toByteArray();
    request.method(
        method,
        body.length == 0 && !method.equals("POST") && !method.equals("PUT")
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    long start = System.currentTimeMillis();
    int status = 503;
    try {
      status = HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
      int answered = status;
      log.fine(() -> "task " + method + " " + uri + " answered " + answered);
      return status;
    } catch (IOException e) {
      log.warning("task " + method + " " + uri + " failed: " + e + "; it will be retried");
      return status;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return status;
    } finally {
      record(task, start, status);
    }
  }

  /** Keeps the try for {@code taskqueue.QueryTasks} ({@link TaskRuns}). */
  private static void record(URLFetchRequest task, long start, int status) {
    String queue = null;
    String name = null;
    int retries = 0;
    long etaMillis = 0;
    for (URLFetchRequest.Header header : task.getHeaderList()) {
      String value = header.getValue();
      switch (header.getKey().toLowerCase(Locale.ROOT)) {
        case "x-appengine-queuename" -> queue = value;
        case "x-appengine-taskname" -> name = value;
        case "x-appengine-taskretrycount" -> retries = parseInt(value);
        case "x-appengine-tasketa" -> etaMillis = parseSecondsAsMillis(value);
        default -> {
          // not needed
        }
      }
    }
    if (queue != null && name != null) {
      TaskRuns.record(
          queue, name, retries, etaMillis, start, System.currentTimeMillis() - start, status);
    }
  }

  private static int parseInt(String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static long parseSecondsAsMillis(String value) {
    try {
      return (long) (Double.parseDouble(value.trim()) * 1000);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
