package dev.aerun.runtime.dev;

import dev.aerun.runtime.contract.RequestContract;
import java.util.Objects;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Attributes;
import org.eclipse.jetty.util.Callback;

/**
 * Development only, in front of everything the development server adds: marks the requests of the
 * developer at this machine, the only ones its conveniences serve (stack traces on error pages, the
 * {@code /_ah/dev} status page, the {@code /_ah/login} page and its cookie). A request is the
 * developer's when both hold:
 *
 * <ul>
 *   <li>its client, as the runtime believes it (the TCP peer, or the address a trusted proxy gave),
 *       is a loopback IP address ({@link Loopback#isLoopbackClient}; a Unix-domain peer is not);
 *   <li>the host it names ({@code Host}, else the authority of its target) is one of the {@link
 *       DevelopmentHosts}: a page elsewhere that rebinds its own name to 127.0.0.1 makes the
 *       developer's browser send requests from loopback that name that page's host.
 * </ul>
 *
 * Everyone else gets the production answers: the app's own 404 for those paths, error pages without
 * details, the development cookie ignored.
 */
public final class DeveloperHandler extends Handler.Wrapper {
  /** The request attribute that marks a developer's request; never set by anything else. */
  private static final String ATTRIBUTE = DeveloperHandler.class.getName();

  private final DevelopmentHosts hosts;

  public DeveloperHandler(DevelopmentHosts hosts) {
    this.hosts = Objects.requireNonNull(hosts, "hosts");
  }

  public DeveloperHandler(DevelopmentHosts hosts, Handler next) {
    this(hosts);
    setHandler(next);
  }

  /**
   * Whether {@code request} went through a {@link DeveloperHandler} that found it a developer's.
   */
  public static boolean isDeveloper(Attributes request) {
    return request != null && Boolean.TRUE.equals(request.getAttribute(ATTRIBUTE));
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (Loopback.isLoopbackClient(request) && hosts.test(RequestContract.requestHost(request))) {
      request.setAttribute(ATTRIBUTE, Boolean.TRUE);
    } else {
      request.removeAttribute(ATTRIBUTE);
    }
    return super.handle(request, response, callback);
  }
}
