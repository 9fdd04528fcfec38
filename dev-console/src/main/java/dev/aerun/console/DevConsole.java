package dev.aerun.console;

import dev.aerun.runtime.apis.ApiHostClient;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;

/**
 * The development server's console for the local services, under {@code /_ah/dev/}: Datastore, task
 * queues, cron, memcache, mail (the status page at {@code /_ah/dev} is its first page). It reads
 * and changes the services through the local API host, with the same remote-API calls the app's SDK
 * makes ({@link ApiHostClient}); the calls the local services offer only in-process are answered by
 * the host with the platform's own messages. Development only: its handler answers the developer at
 * this machine alone.
 */
public final class DevConsole {
  private final ApiHostClient host;
  private final String appId;
  private final Path app;
  private final AtomicInteger port = new AtomicInteger();

  /**
   * @param localHost the local API host's client; null when there is none (the sections but cron
   *     then say so)
   * @param appId the application id the app's calls carry (its entities' keys have it)
   * @param app the app's directory or {@code .war} (its {@code WEB-INF/cron.xml})
   */
  public DevConsole(ApiHostClient localHost, String appId, Path app) {
    this.host = localHost;
    this.appId = appId;
    this.app = app;
  }

  /**
   * A new handler of the console, for one request path: it passes every request it does not take to
   * the handler it wraps.
   */
  public Handler.Wrapper handler() {
    HostCalls calls =
        host == null
            ? (service, method, request) -> {
              throw new IllegalStateException("no local API host");
            }
            : (service, method, request) ->
                host.callBlocking(service, method, request, HostCalls.DEADLINE_SECONDS);
    List<ConsoleSection> sections =
        List.of(
            new DatastoreSection(new Datastore(calls, appId)),
            new TaskQueueSection(new TaskQueues(calls), System::currentTimeMillis),
            new CronSection(new CronJobs(app), new CronDispatch(port::get)),
            new MemcacheSection(new Memcache(calls)),
            new MailSection(new Mail(calls)));
    return new ConsoleHandler(sections, host != null, new PageTokens());
  }

  /** The runtime serves HTTP on {@code 127.0.0.1:port} (where cron jobs are sent). */
  public void served(int newPort) {
    port.set(newPort);
  }
}
