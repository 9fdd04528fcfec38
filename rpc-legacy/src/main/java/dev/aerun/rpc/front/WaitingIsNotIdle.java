package dev.aerun.rpc.front;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Keeps Jetty's idle timeout from failing a front-end request that waits with nothing to read or
 * write: for a turn in the waiting room, or for the runtime's answer. Either wait has its own bound
 * (the queue timeout; the call's deadline), as a servlet thread's wait in HttpConnector mode has.
 * Idle reads and writes still time out: Jetty delivers the timeout to a pending read or write, not
 * to this listener.
 *
 * <p>This matters most during a drain: the connector's graceful shutdown cuts its connections' idle
 * timeout to a second, and a request still waiting a second later would otherwise be failed and
 * answered 500 when its turn came.
 *
 * <p>Jetty hands an idle timeout with no read or write pending to the request's failure listeners,
 * and {@link FrontHandler} has one (it cancels the call when its client goes away). HttpConnector
 * mode registers none in front of the app, so the same waits outlive the idle timeout there without
 * this guard ({@code IdleTimeoutTest} in http-connector).
 */
public final class WaitingIsNotIdle extends Handler.Wrapper {
  public WaitingIsNotIdle() {}

  public WaitingIsNotIdle(Handler next) {
    super(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    request.addIdleTimeoutListener(timeout -> false);
    return super.handle(request, response, callback);
  }
}
