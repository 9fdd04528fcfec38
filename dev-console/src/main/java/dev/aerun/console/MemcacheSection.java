package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import java.util.Set;
import org.eclipse.jetty.util.Fields;

/** Memcache: its counters; flush it. */
final class MemcacheSection implements ConsoleSection {
  private static final String PATH = ConsoleHandler.PREFIX + "memcache";

  private final Memcache memcache;

  MemcacheSection(Memcache memcache) {
    this.memcache = memcache;
  }

  @Override
  public String name() {
    return "memcache";
  }

  @Override
  public String title() {
    return "Memcache";
  }

  @Override
  public Set<String> pages() {
    return Set.of("");
  }

  @Override
  public Set<String> actions() {
    return Set.of("flush");
  }

  @Override
  public Answer pageBlocking(String page, Fields query, String token)
      throws ApiCallException, InterruptedException {
    Memcache.Stats stats = memcache.statsBlocking();
    Html html = new Html();
    html.done("flushed".equals(query.getValue("done")) ? "The cache was flushed." : null);
    html.tag("<table>")
        .tag("<tr><th>Items</th>")
        .element("td", stats.items())
        .tag("</tr>")
        .tag("<tr><th>Bytes</th>")
        .element("td", stats.bytes())
        .tag("</tr>")
        .tag("<tr><th>Hits</th>")
        .element("td", stats.hits())
        .tag("</tr>")
        .tag("<tr><th>Misses</th>")
        .element("td", stats.misses())
        .tag("</tr>")
        .tag("<tr><th>Bytes served by hits</th>")
        .element("td", stats.byteHits())
        .tag("</tr>")
        .tag("<tr><th>Oldest item's age</th>")
        .element("td", stats.oldestItemAgeSeconds() + " s")
        .tag("</tr></table>\n")
        .actionForm(PATH + "/flush", token, "Flush the cache");
    return Answer.page(title(), html.toString());
  }

  @Override
  public Answer actBlocking(String action, Fields form)
      throws ApiCallException, InterruptedException {
    memcache.flushBlocking();
    return Answer.redirect(Html.url(PATH, "done", "flushed"));
  }
}
