package dev.aerun.runtime.webapp.ee8;

import dev.aerun.runtime.sessions.WebappSessions;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletContext;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.HttpSession;

/**
 * Installed first in an app without sessions: hands the app a session that holds nothing (see
 * {@link WebappSessions}), so Jetty never creates a real one nor sends a session cookie.
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

    @Override
    @SuppressWarnings("deprecation")
    public javax.servlet.http.HttpSessionContext getSessionContext() {
      return null;
    }

    @Override
    public Object getValue(String name) {
      return null;
    }

    @Override
    public String[] getValueNames() {
      return new String[0];
    }

    @Override
    public void putValue(String name, Object value) {
      throw sessions.disabledError();
    }

    @Override
    public void removeValue(String name) {
      throw sessions.disabledError();
    }
  }
}
