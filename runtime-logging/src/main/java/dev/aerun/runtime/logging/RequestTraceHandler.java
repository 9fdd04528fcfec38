package dev.aerun.runtime.logging;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.contract.TraceContext;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Publishes the request's trace (the {@link RequestAttributes#TRACE_ID} attributes the request
 * contract set) as {@link RequestTrace#current()} while the next handlers run, so that every log
 * line written meanwhile on this thread — the app's, Jetty's, an exception Jetty logs — names the
 * request's trace. Goes right after the contract handler, which sets those attributes.
 *
 * <p>Also tells the {@link AccessLog} the remote address the app saw, when the contract changed it
 * (from {@code X-AppEngine-User-IP}): Jetty hands the request log the request as it arrived, not as
 * the handlers wrapped it.
 *
 * <p>Never blocks; a request without a trace and with its own address goes through untouched. A
 * traced request whose handler throws is answered with an error here, inside the trace.
 */
public final class RequestTraceHandler extends Handler.Wrapper {

  public RequestTraceHandler() {}

  public RequestTraceHandler(Handler next) {
    super(next);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    try {
      Object traceId = request.getAttribute(RequestAttributes.TRACE_ID);
      if (!(traceId instanceof String id)) {
        return super.handle(request, response, callback);
      }
      TraceContext previous = RequestTrace.set(traceOf(request, id));
      try {
        return super.handle(request, response, callback);
      } catch (Throwable failure) {
        // Answered here, as a ContextHandler does, rather than by Jetty after handle() returned:
        // then the warning Jetty logs about the failure is in the request's trace too.
        Response.writeError(request, response, callback, failure);
        return true;
      } finally {
        RequestTrace.restore(previous);
      }
    } finally {
      // Set after the app's handle() so a synchronous app never sees the attribute; Jetty calls
      // the request log only after handle() returned, so it always does.
      Request original = Request.unWrap(request);
      if (original.getConnectionMetaData() != request.getConnectionMetaData()) {
        request.setAttribute(
            AccessLog.REMOTE_ADDRESS_ATTRIBUTE,
            AccessLog.formatRemoteIp(request.getConnectionMetaData()));
      }
    }
  }

  /** The trace the contract found, from the request's attributes. */
  static TraceContext traceOf(Request request, String traceId) {
    Object spanId = request.getAttribute(RequestAttributes.SPAN_ID);
    Object sampled = request.getAttribute(RequestAttributes.TRACE_SAMPLED);
    return new TraceContext(
        traceId, spanId instanceof String span ? span : null, Boolean.TRUE.equals(sampled));
  }
}
