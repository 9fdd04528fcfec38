package dev.aerun.runtime.webapp.ee8;

import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import javax.servlet.RequestDispatcher;
import javax.servlet.SessionTrackingMode;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee8.nested.ContextHandler.CoreContextHandler;
import org.eclipse.jetty.ee8.nested.Request;
import org.eclipse.jetty.ee8.nested.ServletConstraint;
import org.eclipse.jetty.ee8.nested.SessionHandler;
import org.eclipse.jetty.ee8.security.ConstraintMapping;
import org.eclipse.jetty.ee8.security.ConstraintSecurityHandler;
import org.eclipse.jetty.ee8.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee8.servlet.ServletContextHandler;
import org.eclipse.jetty.ee8.servlet.ServletHandler;
import org.eclipse.jetty.ee8.webapp.ClassMatcher;
import org.eclipse.jetty.ee8.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.session.SessionManager;

/**
 * Where Jetty's ee8 webapp API differs from ee10's, in the terms of {@code Ee8WebappHost}
 * (generated from runtime-ee10's {@code Ee10WebappHost}; this is the ee8 side of its {@code
 * Ee10Jetty}). An ee8 context is not a core handler: the server holds its core counterpart.
 */
final class Ee8Jetty {
  private Ee8Jetty() {}

  /** The servlets of a webapp {@code Ee8WebappHost} made, or {@code null} if it has none yet. */
  static ServletHandler servletHandler(Handler webapp) {
    return webapp instanceof CoreContextHandler core
            && core.getContextHandler() instanceof ServletContextHandler context
        ? context.getServletHandler()
        : null;
  }

  /** The security handler of a webapp {@code Ee8WebappHost} made, or {@code null}. */
  static AppEngineSecurityHandler securityHandler(Handler webapp) {
    return webapp instanceof CoreContextHandler core
            && core.getContextHandler() instanceof ServletContextHandler context
            && context.getSecurityHandler() instanceof AppEngineSecurityHandler security
        ? security
        : null;
  }

  /** Hides the classes {@code patterns} match from the app (ee8 calls them server classes). */
  static void hideClasses(WebAppContext webapp, String[] patterns) {
    webapp.addServerClassMatcher(new ClassMatcher(patterns));
  }

  /** What goes into the server: the context's core counterpart. */
  static ContextHandler coreContext(WebAppContext webapp) {
    return webapp.getCoreContextHandler();
  }

  /**
   * Sessions off: ee8's nested session handler stays as it is (its per-request work was not
   * measured); the app's {@code getSession} is {@link DisabledSessionsFilter}'s either way.
   */
  static void withoutSessions(WebAppContext webapp) {}

  /**
   * Sessions on: found by their cookie only. A {@code ;jsessionid=} in a request's path selects no
   * session (a link must not carry a session to whoever follows it), and {@code encodeURL} never
   * writes one, whatever tracking modes the app asks for; the path still reaches the app as sent.
   */
  static void cookieOnlySessions(WebAppContext webapp) {
    webapp.setSessionHandler(new CookieOnlySessionHandler());
  }

  /** Jetty's ee8 session handler, with the URL tracking mode taken away. */
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
    return webapp.getSessionHandler().getSessionManager();
  }

  /**
   * The error handler: the app's {@code <error-page>}s, else {@link NoDetailsErrorHandler}'s policy
   * (details only for the developer at this machine).
   */
  static ErrorPageErrorHandler errorPages(boolean development) {
    ErrorPageErrorHandler pages =
        new ErrorPageErrorHandler() {
          @Override
          protected void generateAcceptableResponse(
              Request baseRequest,
              HttpServletRequest request,
              HttpServletResponse response,
              int code,
              String message)
              throws IOException {
            if (NoDetailsErrorHandler.showsDetails(development, baseRequest.getCoreRequest())) {
              super.generateAcceptableResponse(baseRequest, request, response, code, message);
              return;
            }
            // The ee8 page lists the exception chain from this attribute, with no switch to turn
            // it off.
            request.removeAttribute(RequestDispatcher.ERROR_EXCEPTION);
            super.generateAcceptableResponse(
                baseRequest, request, response, code, NoDetailsErrorHandler.safeReason(code));
          }
        };
    pages.setShowStacks(development);
    pages.setShowServlet(false);
    pages.setShowMessageInTitle(false);
    return pages;
  }

  /** Only the {@code admin} role may request {@code path} (trusted task requests have it). */
  static void adminsOnly(WebAppContext webapp, String path) {
    ServletConstraint constraint = new ServletConstraint("admins-only", "admin");
    constraint.setAuthenticate(true);
    ConstraintMapping mapping = new ConstraintMapping();
    mapping.setConstraint(constraint);
    mapping.setPathSpec(path);
    ((ConstraintSecurityHandler) webapp.getSecurityHandler()).addConstraintMapping(mapping);
  }
}
