package dev.aerun.apihost;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The local API host's command line, read once: {@code --app-dir DIR --storage DIR --app-id ID
 * [--parent-pid PID] [--port N] [--log-calls]}. The secret is not an option: it arrives as the
 * first line on standard input, so no process listing shows it.
 *
 * @param appDir the app's directory: its {@code WEB-INF/queue.xml} and {@code
 *     datastore-indexes.xml} are read there, {@code WEB-INF/appengine-generated/} is written there
 * @param storage where the Datastore and Blobstore keep their data between runs
 * @param appId the application id the runtime gives the app (its entities' keys carry it)
 * @param parentPid the process whose end ends this one (the dev server), or null
 * @param port the port to bind on 127.0.0.1; 0 for any free one
 * @param logCalls whether every call is logged with its service, method and request id
 */
record HostOptions(
    Path appDir, Path storage, String appId, Long parentPid, int port, boolean logCalls) {

  /**
   * Reads {@code args}.
   *
   * @throws IllegalArgumentException naming the option that is wrong or missing
   */
  static HostOptions parse(List<String> args) {
    Deque<String> rest = new ArrayDeque<>(args);
    Path appDir = null;
    Path storage = null;
    String appId = null;
    Long parentPid = null;
    int port = 0;
    boolean logCalls = false;
    while (!rest.isEmpty()) {
      String option = rest.poll();
      switch (option) {
        case "--app-dir" -> appDir = Path.of(value(rest, option));
        case "--storage" -> storage = Path.of(value(rest, option));
        case "--app-id" -> appId = value(rest, option);
        case "--parent-pid" -> parentPid = number(value(rest, option), option);
        case "--port" -> port = (int) (long) number(value(rest, option), option);
        case "--log-calls" -> logCalls = true;
        default -> throw new IllegalArgumentException("unknown option " + option);
      }
    }
    if (appDir == null || storage == null || appId == null) {
      throw new IllegalArgumentException("--app-dir, --storage and --app-id are required");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be 0-65535");
    }
    return new HostOptions(appDir, storage, appId, parentPid, port, logCalls);
  }

  private static String value(Deque<String> rest, String option) {
    String value = rest.poll();
    if (value == null) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return value;
  }

  private static Long number(String value, String option) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must be a number, not '" + value + "'");
    }
  }
}
