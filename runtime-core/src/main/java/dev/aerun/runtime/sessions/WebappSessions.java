package dev.aerun.runtime.sessions;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.NullSessionDataStoreFactory;
import org.eclipse.jetty.session.SessionCache;
import org.eclipse.jetty.session.SessionDataStoreFactory;
import org.eclipse.jetty.session.SessionManager;

/**
 * Whether a webapp has HTTP sessions ({@code <sessions-enabled>}) and where they are kept. Each
 * {@link dev.aerun.runtime.webapp.WebappHost} applies it the same way.
 *
 * <p><b>Enabled</b>: Jetty's session handling with a {@link DefaultSessionCache} (sessions in this
 * instance's memory) in front of a {@link SessionDataStoreFactory store}. The default store, {@link
 * #inMemory()}, keeps nothing beyond the cache: sessions live as long as the instance, on one
 * instance only. A persistent store plugs in through {@link #enabled(SessionDataStoreFactory)}; a
 * store that instances share through {@link #shared(JdbcSessionStore)}.
 *
 * <p><b>Disabled</b> (the descriptor's default): as on App Engine, {@code getSession()} still
 * returns a session so that pages that merely touch it (every JSP does by default) keep working,
 * but the session holds nothing: reading an attribute gives null, and storing or removing one
 * throws {@link IllegalStateException} with {@link #DISABLED_MESSAGE}, which is also logged once.
 * No session cookie is sent and {@code getSession(false)} returns null.
 */
public final class WebappSessions {

  /** What the app is told when it uses a session of an app without sessions. */
  public static final String DISABLED_MESSAGE =
      "HTTP sessions are not enabled for this app: set <sessions-enabled>true</sessions-enabled>"
          + " in WEB-INF/appengine-web.xml to store attributes in HttpSession";

  private static final Logger log = Logger.getLogger(WebappSessions.class.getName());
  private static final WebappSessions DISABLED = new WebappSessions(null);
  private static final WebappSessions IN_MEMORY =
      new WebappSessions(new NullSessionDataStoreFactory());

  private final SessionDataStoreFactory store;
  private final boolean shared;
  private final boolean flushBeforeResponse;
  private final AtomicBoolean warned = new AtomicBoolean();

  private WebappSessions(SessionDataStoreFactory store) {
    this(store, false, false);
  }

  private WebappSessions(
      SessionDataStoreFactory store, boolean shared, boolean flushBeforeResponse) {
    this.store = store;
    this.shared = shared;
    this.flushBeforeResponse = flushBeforeResponse;
  }

  /** No sessions ({@code <sessions-enabled>false}). */
  public static WebappSessions disabled() {
    return DISABLED;
  }

  /** Sessions kept in this instance's memory only (Jetty's default store). */
  public static WebappSessions inMemory() {
    return IN_MEMORY;
  }

  /** Sessions cached in memory and saved to {@code store}. */
  public static WebappSessions enabled(SessionDataStoreFactory store) {
    return new WebappSessions(Objects.requireNonNull(store, "store"));
  }

  /**
   * Sessions in a database that every instance of the app uses. The cache keeps a session only
   * while requests use it, so the next request, on whichever instance, reads what the last one
   * wrote; a new session is written at once; unless the store writes behind, a request's changes
   * are written before its response is sent.
   */
  public static WebappSessions shared(JdbcSessionStore store) {
    return new WebappSessions(store, true, !store.writeBehind());
  }

  /** The settings for {@code <sessions-enabled>sessionsEnabled</sessions-enabled>}. */
  public static WebappSessions fromDescriptor(boolean sessionsEnabled) {
    return sessionsEnabled ? inMemory() : disabled();
  }

  public boolean isEnabled() {
    return store != null;
  }

  /**
   * The session cache for {@code manager} (a webapp's session handler), backed by the store.
   *
   * @throws IllegalStateException if sessions are disabled or the store cannot be created
   */
  public SessionCache newCache(SessionManager manager) {
    if (store == null) {
      throw new IllegalStateException("sessions are disabled");
    }
    DefaultSessionCache cache =
        shared
            ? new SharedSessionCache(manager, flushBeforeResponse)
            : new DefaultSessionCache(manager);
    try {
      cache.setSessionDataStore(store.getSessionDataStore(manager));
    } catch (Exception e) {
      throw new IllegalStateException("Cannot create the session store: " + e.getMessage(), e);
    }
    return cache;
  }

  /**
   * The exception for an app that stores into a session while sessions are disabled; the first
   * time, the message is also logged (the app may catch the exception, the developer must see it).
   */
  public IllegalStateException disabledError() {
    if (warned.compareAndSet(false, true)) {
      log.warning(DISABLED_MESSAGE);
    }
    return new IllegalStateException(DISABLED_MESSAGE);
  }

  @Override
  public String toString() {
    return store == null ? "sessions disabled" : "sessions enabled (" + store + ")";
  }
}
