package dev.aerun.runtime.webapp.ee10;

import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import jakarta.servlet.SessionTrackingMode;
import java.io.IOException;
import java.io.Writer;
import java.util.EnumSet;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.ee10.servlet.ServletHandler;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.ee10.servlet.security.ConstraintMapping;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.session.AbstractSessionManager;
import org.eclipse.jetty.session.SessionManager;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ClassMatcher;

/**
 * Where Jetty's ee10 webapp API differs from ee8's, in the terms {@link Ee10WebappHost} (one source
 * for every EE) uses. Generated for ee11 like the host; runtime-ee8 has its own {@code Ee8Jetty}.
 */
final class Ee10Jetty {
  private Ee10Jetty() {}

  /** The servlets of a webapp {@link Ee10WebappHost} made, or {@code null} if it has none yet. */
  static ServletHandler servletHandler(Handler webapp) {
    return webapp instanceof ServletContextHandler context ? context.getServletHandler() : null;
  }

  /** The security handler of a webapp {@link Ee10WebappHost} made, or {@code null}. */
  static AppEngineSecurityHandler securityHandler(Handler webapp) {
    return webapp instanceof ServletContextHandler context
            && context.getSecurityHandler() instanceof AppEngineSecurityHandler security
        ? security
        : null;
  }

  /** Hides the classes {@code patterns} match from the app. */
  static void hideClasses(WebAppContext webapp, String[] patterns) {
    webapp.addHiddenClassMatcher(new ClassMatcher(patterns));
  }

  /** What goes into the server: an ee10 context is a core handler itself. */
  static ContextHandler coreContext(WebAppContext webapp) {
    return webapp;
  }

  /**
   * Sessions off: the webapp's session handler does nothing per request. Jetty's parses the
   * request's cookies for a session id, wraps the stream to commit a session and completes it in
   * the context's scope on every request, for sessions that cannot exist here (the app's {@code
   * getSession} is {@link DisabledSessionsFilter}'s). {@code getRequestedSessionId()} is then null,
   * as for a request that sent none.
   */
  static void withoutSessions(WebAppContext webapp) {
    webapp.setSessionHandler(new NoSessionsHandler());
  }

  /** The session handler of a webapp with sessions off; named for Jetty's log lines. */
  static final class NoSessionsHandler extends SessionHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      Handler next = getHandler();
      if (next == null) {
        return false;
      }
      ServletContextRequest servletRequest = Request.as(request, ServletContextRequest.class);
      if (servletRequest != null && servletRequest.getRequestedSession() == null) {
        servletRequest.setRequestedSession(
            AbstractSessionManager.RequestedSession.NO_REQUESTED_SESSION);
      }
      return next.handle(request, response, callback);
    }
  }

  /**
   * Sessions on: found by their cookie only. A {@code ;jsessionid=} in a request's path selects no
   * session (a link must not carry a session to whoever follows it), and {@code encodeURL} never
   * writes one, whatever tracking modes the app asks for; the path still reaches the app as sent.
   */
  static void cookieOnlySessions(WebAppContext webapp) {
    webapp.setSessionHandler(new CookieOnlySessionHandler());
  }

  /** Jetty's session handler, with the URL tracking mode taken away. */
  private static final class CookieOnlySessionHandler extends SessionHandler {
    @Override
    public void setSessionTrackingModes(Set<SessionTrackingMode> modes) {
      super.setSessionTrackingModes(EnumSet.of(SessionTrackingMode.COOKIE));
    }

    @Override
    public Set<SessionTrackingMode> getDefaultSessionTrackingModes() {
      return EnumSet.of(SessionTrackingMode.COOKIE);
    }

    @Override
    public void setUsingUriParameters(boolean usingUriParameters) {
      super.setUsingUriParameters(false);
    }
  }

  /** The session manager whose cache the runtime sets. */
  static SessionManager sessions(WebAppContext webapp) {
    return webapp.getSessionHandler();
  }

  /**
   * The error handler: the app's {@code <error-page>}s, else {@link NoDetailsErrorHandler}'s policy
   * (details only for the developer at this machine).
   */
  static ErrorPageErrorHandler errorPages(boolean development) {
    ErrorPageErrorHandler pages =
        new ErrorPageErrorHandler() {
          @Override
          protected void generateResponse(
              Request request,
              Response response,
              int code,
              String message,
              Throwable cause,
              Callback callback)
              throws IOException {
            boolean details = NoDetailsErrorHandler.showsDetails(development, request);
            super.generateResponse(
                request,
                response,
                code,
                details ? message : NoDetailsErrorHandler.safeReason(code),
                details ? cause : null,
                callback);
          }

          @Override
          protected void writeErrorHtmlStacks(Request request, Writer writer) throws IOException {
            // The stack comes from the request's exception attribute, whatever the cause passed.
            if (NoDetailsErrorHandler.showsDetails(development, request)) {
              super.writeErrorHtmlStacks(request, writer);
            }
          }
        };
    NoDetailsErrorHandler.hideDetails(pages, development);
    return pages;
  }

  /** Only the {@code admin} role may request {@code path} (trusted task requests have it). */
  static void adminsOnly(WebAppContext webapp, String path) {
    ConstraintMapping mapping = new ConstraintMapping();
    mapping.setConstraint(
        Constraint.from("admins-only", Constraint.Authorization.SPECIFIC_ROLE, "admin"));
    mapping.setPathSpec(path);
    ((ConstraintSecurityHandler) webapp.getSecurityHandler()).addConstraintMapping(mapping);
  }
}
