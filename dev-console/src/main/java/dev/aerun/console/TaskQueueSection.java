package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.eclipse.jetty.util.Fields;

/**
 * The task queues: the queues of {@code queue.xml} with their tasks' count, a queue's pending tasks
 * (ETA, retries, the last try's status) a page at a time; run a task now, delete it, purge a queue.
 */
final class TaskQueueSection implements ConsoleSection {
  static final int PAGE_SIZE = 50;
  private static final String PATH = ConsoleHandler.PREFIX + "taskqueue";

  private final TaskQueues queues;
  private final LongSupplier nowMillis;

  TaskQueueSection(TaskQueues queues, LongSupplier nowMillis) {
    this.queues = queues;
    this.nowMillis = nowMillis;
  }

  @Override
  public String name() {
    return "taskqueue";
  }

  @Override
  public String title() {
    return "Task queues";
  }

  @Override
  public Set<String> pages() {
    return Set.of("", "queue");
  }

  @Override
  public Set<String> actions() {
    return Set.of("run", "delete", "purge");
  }

  @Override
  public Answer pageBlocking(String page, Fields query, String token)
      throws ApiCallException, InterruptedException {
    return page.isEmpty() ? queuesBlocking(query, token) : queueBlocking(query, token);
  }

  @Override
  public Answer actBlocking(String action, Fields form)
      throws ApiCallException, InterruptedException {
    String queue = DatastoreSection.required(form, "queue");
    switch (action) {
      case "purge" -> {
        queues.purgeBlocking(queue);
        return Answer.redirect(Html.url(PATH + "/queue", "name", queue, "done", "purged"));
      }
      case "run" -> {
        boolean ran = queues.runBlocking(queue, DatastoreSection.required(form, "task"));
        return Answer.redirect(
            Html.url(PATH + "/queue", "name", queue, "done", ran ? "ran" : "unknown"));
      }
      default -> {
        boolean deleted = queues.deleteBlocking(queue, DatastoreSection.required(form, "task"));
        return Answer.redirect(
            Html.url(PATH + "/queue", "name", queue, "done", deleted ? "deleted" : "unknown"));
      }
    }
  }

  private Answer queuesBlocking(Fields query, String token)
      throws ApiCallException, InterruptedException {
    Html html = new Html();
    html.done(done(query.getValue("done")));
    List<TaskQueues.Queue> all = queues.queuesBlocking();
    html.tag(
        "<p class=\"note\">The queues of WEB-INF/queue.xml (and <code>default</code>), as"
            + " the local API host runs them.</p>\n");
    html.tag(
        "<table><tr><th>Queue</th><th>Mode</th><th>Rate</th><th>Bucket size</th>"
            + "<th>Max concurrent</th><th>Retry parameters</th><th>Tasks</th><th>Oldest ETA</th>"
            + "<th></th></tr>\n");
    for (TaskQueues.Queue queue : all) {
      html.tag("<tr><td>")
          .link(queue.name(), PATH + "/queue", "name", queue.name())
          .tag("</td>")
          .element("td", queue.pull() ? "pull" : "push")
          .element(
              "td",
              queue.rate().isEmpty() ? "-" : queue.rate() + (queue.paused() ? " (paused)" : ""))
          .element("td", (long) queue.bucketSize())
          .element(
              "td",
              queue.maxConcurrentRequests() > 0
                  ? Integer.toString(queue.maxConcurrentRequests())
                  : "-")
          .element("td", queue.retry().isEmpty() ? "-" : queue.retry())
          .element("td", queue.tasks())
          .element("td", queue.oldestEtaUsec() > 0 ? eta(queue.oldestEtaUsec()) : "-")
          .tag("<td>")
          .actionForm(PATH + "/purge", token, "Purge", "queue", queue.name())
          .tag("</td></tr>\n");
    }
    html.tag("</table>\n");
    return Answer.page(title(), html.toString());
  }

  private Answer queueBlocking(Fields query, String token)
      throws ApiCallException, InterruptedException {
    String queue = DatastoreSection.required(query, "name");
    TaskQueues.Task from = null;
    String afterName = query.getValue("from");
    if (afterName != null && !afterName.isEmpty()) {
      long eta;
      try {
        eta = Long.parseLong(String.valueOf(query.getValue("eta")));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("eta must be a number of microseconds");
      }
      from = new TaskQueues.Task(afterName, eta, "", "", 0, 0, List.of(), 0, "");
    }
    TaskQueues.Tasks page = queues.tasksBlocking(queue, from, PAGE_SIZE);
    Html html = new Html();
    html.done(done(query.getValue("done")));
    html.tag("<p>Queue ")
        .element("code", queue)
        .tag(". ")
        .link("All queues", PATH)
        .tag(" ")
        .actionForm(PATH + "/purge", token, "Purge this queue", "queue", queue)
        .tag("</p>\n");
    if (page.tasks().isEmpty()) {
      html.tag("<p class=\"note\">No tasks")
          .tag(from == null ? "" : " from here on")
          .tag(".</p>\n");
    } else {
      html.tag(
          "<table><tr><th>Task</th><th>ETA</th><th>Method</th><th>URL</th>"
              + "<th>Retries</th><th>Last try</th><th>Retry parameters</th><th>Headers</th>"
              + "<th>Body</th><th></th></tr>\n");
      for (TaskQueues.Task task : page.tasks()) {
        html.tag("<tr>")
            .element("td", task.name())
            .element("td", eta(task.etaUsec()))
            .element("td", task.method().isEmpty() ? "(pull)" : task.method())
            .element("td", task.url())
            .element("td", task.retryCount())
            .element("td", task.lastStatus() == 0 ? "-" : "status " + task.lastStatus())
            .element("td", task.retry().isEmpty() ? "-" : task.retry())
            .tag("<td>");
        for (Map.Entry<String, String> header : task.headers()) {
          html.text(header.getKey()).tag(": ").text(header.getValue()).tag("<br>");
        }
        html.tag("</td>").element("td", task.bodySize() + " bytes").tag("<td>");
        if (!task.method().isEmpty()) {
          html.actionForm(PATH + "/run", token, "Run now", "queue", queue, "task", task.name())
              .tag(" ");
        }
        html.actionForm(PATH + "/delete", token, "Delete", "queue", queue, "task", task.name())
            .tag("</td></tr>\n");
      }
      html.tag("</table>\n");
    }
    if (page.next() != null) {
      html.tag("<p>")
          .link(
              "Next page",
              PATH + "/queue",
              "name",
              queue,
              "from",
              page.next().name(),
              "eta",
              Long.toString(page.next().etaUsec()))
          .tag("</p>\n");
    }
    return Answer.page(title() + ": " + queue, html.toString());
  }

  /** An ETA as an instant and how far it is from now. */
  private String eta(long etaUsec) {
    Instant eta = PropertyValue.instant(etaUsec);
    long millis = eta.toEpochMilli() - nowMillis.getAsLong();
    Duration delta = Duration.ofMillis(Math.abs(millis));
    String relative =
        delta.toHours() > 0
            ? delta.toHours() + " h " + delta.toMinutesPart() + " min"
            : delta.toMinutes() > 0
                ? delta.toMinutes() + " min " + delta.toSecondsPart() + " s"
                : delta.toSeconds() + " s";
    return eta.toString() + (millis >= 0 ? " (in " + relative + ")" : " (" + relative + " ago)");
  }

  /** The message of the action a redirect names; null for none. */
  private static String done(String done) {
    return done == null
        ? null
        : switch (done) {
          case "ran" -> "The task ran: if it failed, the queue retries it as usual.";
          case "deleted" -> "The task was deleted.";
          case "purged" -> "The queue was purged.";
          case "unknown" -> "No such task: it ran or was deleted meanwhile.";
          default -> null;
        };
  }
}
