package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import java.util.Set;
import org.eclipse.jetty.util.Fields;

/**
 * One section of the console under {@code /_ah/dev/NAME}: its pages (GET) and its actions (POST,
 * with the page's token already checked). A path below the section is {@code ""} for its first
 * page, else the rest after {@code NAME/}.
 */
interface ConsoleSection {
  /** The section's name: its path under {@code /_ah/dev/}. */
  String name();

  /** The section's title. */
  String title();

  /** The paths of its pages. */
  Set<String> pages();

  /** The paths of its actions. */
  Set<String> actions();

  /** Whether it needs the local API host (every section but cron). */
  default boolean needsHost() {
    return true;
  }

  /**
   * A page; {@code token} goes into every form on it.
   *
   * @throws IllegalArgumentException when a parameter is wrong (a 400 page)
   */
  Answer pageBlocking(String page, Fields query, String token)
      throws ApiCallException, InterruptedException;

  /**
   * An action; answers a redirect to the page that shows its effect.
   *
   * @throws IllegalArgumentException when a parameter is wrong (a 400 page)
   */
  Answer actBlocking(String action, Fields form) throws ApiCallException, InterruptedException;
}
