package dev.aerun.console;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.util.Fields;

/** Cron: the jobs of {@code cron.xml} with their schedule; run one now. */
final class CronSection implements ConsoleSection {
  private static final String PATH = ConsoleHandler.PREFIX + "cron";

  private final CronJobs jobs;
  private final CronDispatch dispatch;

  CronSection(CronJobs jobs, CronDispatch dispatch) {
    this.jobs = jobs;
    this.dispatch = dispatch;
  }

  @Override
  public String name() {
    return "cron";
  }

  @Override
  public String title() {
    return "Cron";
  }

  @Override
  public Set<String> pages() {
    return Set.of("");
  }

  @Override
  public Set<String> actions() {
    return Set.of("run");
  }

  @Override
  public boolean needsHost() {
    return false;
  }

  @Override
  public Answer pageBlocking(String page, Fields query, String token) {
    Optional<List<CronJobs.Job>> read = jobs.read();
    Html html = new Html();
    String ran = query.getValue("ran");
    if (ran != null) {
      html.tag("<p class=\"done\">Ran ")
          .element("code", ran)
          .tag(": the app answered ")
          .text(DatastoreSection.number(query, "status", 0, 999))
          .tag(".</p>\n");
    }
    if (read.isEmpty()) {
      html.tag("<p class=\"note\">The app has no WEB-INF/cron.xml.</p>\n");
      return Answer.page(title(), html.toString());
    }
    html.tag(
        "<p class=\"note\">The jobs of WEB-INF/cron.xml. The development server runs none"
            + " on its schedule: run one here, and it gets the request the platform's cron service"
            + " sends (a GET with <code>X-AppEngine-Cron: true</code>).</p>\n");
    html.tag(
        "<table><tr><th>URL</th><th>Schedule</th><th>Time zone</th><th>Description</th>"
            + "<th>Target</th><th>Retry parameters</th><th></th></tr>\n");
    int index = 0;
    for (CronJobs.Job job : read.get()) {
      html.tag("<tr>")
          .element("td", job.url())
          .element("td", job.schedule())
          .element("td", job.timezone().isEmpty() ? "UTC" : job.timezone())
          .element("td", job.description())
          .element("td", job.target().isEmpty() ? "-" : job.target())
          .element("td", job.retry().isEmpty() ? "-" : job.retry())
          .tag("<td>")
          .actionForm(
              PATH + "/run", token, "Run now", "job", Integer.toString(index++), "url", job.url())
          .tag("</td></tr>\n");
    }
    html.tag("</table>\n");
    return Answer.page(title(), html.toString());
  }

  @Override
  public Answer actBlocking(String action, Fields form) throws InterruptedException {
    List<CronJobs.Job> all = jobs.read().orElse(List.of());
    int index = DatastoreSection.number(form, "job", -1, Integer.MAX_VALUE);
    String url = DatastoreSection.required(form, "url");
    if (index < 0 || index >= all.size() || !all.get(index).url().equals(url)) {
      return Answer.error(409, title(), "cron.xml changed: reload the page.");
    }
    int status;
    try {
      status = dispatch.runBlocking(url);
    } catch (IOException e) {
      return Answer.error(502, title(), "The job could not reach the app: " + e.getMessage());
    }
    return Answer.redirect(Html.url(PATH, "ran", url, "status", Integer.toString(status)));
  }
}
