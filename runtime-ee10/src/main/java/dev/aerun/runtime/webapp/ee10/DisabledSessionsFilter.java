package dev.aerun.runtime.webapp.ee10;

import dev.aerun.runtime.sessions.WebappSessions;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;

/**
 * Installed first in an app without sessions: hands the app a session that holds nothing (see
 * {@link WebappSessions}), so Jetty never creates a real one nor sends a session cookie.
 *
 * <p>The one copy for every EE version: the ee11 and the {@code javax.servlet} (ee8) filters are
 * generated from this file at build time (see {@code build/source-transform.xml}).
 */
final class DisabledSessionsFilter implements Filter {
  private final WebappSessions sessions;

  DisabledSessionsFilter(WebappSessions sessions) {
    this.sessions = sessions;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest http && !(request instanceof NoSessionRequest)) {
      chain.doFilter(new NoSessionRequest(http, sessions), response);
    } else {
      chain.doFilter(request, response);
    }
  }

  private static final class NoSessionRequest extends HttpServletRequestWrapper {
    private final WebappSessions sessions;
    private HttpSession session;

    NoSessionRequest(HttpServletRequest request, WebappSessions sessions) {
      super(request);
      this.sessions = sessions;
    }

    @Override
    public HttpSession getSession(boolean create) {
      if (!create) {
        return null;
      }
      if (session == null) {
        session = new EmptySession(getServletContext(), sessions);
      }
      return session;
    }

    @Override
    public HttpSession getSession() {
      return getSession(true);
    }

    @Override
    public String changeSessionId() {
      throw sessions.disabledError();
    }

    @Override
    public boolean isRequestedSessionIdValid() {
      return false;
    }
  }

  /** A session that stays empty: reads see nothing, writes fail with the reason. */
  private static final class EmptySession implements HttpSession {
    private final ServletContext context;
    private final WebappSessions sessions;
    private final long created = System.currentTimeMillis();

    EmptySession(ServletContext context, WebappSessions sessions) {
      this.context = context;
      this.sessions = sessions;
    }

    @Override
    public long getCreationTime() {
      return created;
    }

    @Override
    public String getId() {
      return "";
    }

    @Override
    public long getLastAccessedTime() {
      return created;
    }

    @Override
    public ServletContext getServletContext() {
      return context;
    }

    @Override
    public void setMaxInactiveInterval(int interval) {}

    @Override
    public int getMaxInactiveInterval() {
      return 0;
    }

    @Override
    public Object getAttribute(String name) {
      return null;
    }

    @Override
    public Enumeration<String> getAttributeNames() {
      return Collections.emptyEnumeration();
    }

    @Override
    public void setAttribute(String name, Object value) {
      throw sessions.disabledError();
    }

    @Override
    public void removeAttribute(String name) {
      throw sessions.disabledError();
    }

    @Override
    public void invalidate() {}

    @Override
    public boolean isNew() {
      return true;
    }
  }
}
