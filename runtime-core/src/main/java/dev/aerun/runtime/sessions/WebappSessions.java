package dev.aerun.runtime.sessions;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.NullSessionDataStoreFactory;
import org.eclipse.jetty.session.SessionCache;
import org.eclipse.jetty.session.SessionDataStoreFactory;
import org.eclipse.jetty.session.SessionManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a webapp has HTTP sessions ({@code <sessions-enabled>}) and where they are kept. Each
 * {@link dev.aerun.runtime.webapp.WebappHost} applies it the same way.
 *
 * <p><b>Enabled</b>: Jetty's session handling with a {@link DefaultSessionCache} (sessions in this
 * instance's memory) in front of a {@link SessionDataStoreFactory store}. The default store, {@link
 * #inMemory()}, keeps nothing beyond the cache: sessions live as long as the instance, on one
 * instance only. A persistent store plugs in through {@link #enabled(SessionDataStoreFactory)}.
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

  private static final Logger LOG = LoggerFactory.getLogger(WebappSessions.class);
  private static final WebappSessions DISABLED = new WebappSessions(null);
  private static final WebappSessions IN_MEMORY =
      new WebappSessions(new NullSessionDataStoreFactory());

  private final SessionDataStoreFactory store;
  private final AtomicBoolean warned = new AtomicBoolean();

  private WebappSessions(SessionDataStoreFactory store) {
    this.store = store;
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
   * @throws IllegalStateException if sessions are disabled
   * @throws Exception if the store cannot be created
   */
  public SessionCache newCache(SessionManager manager) throws Exception {
    if (store == null) {
      throw new IllegalStateException("sessions are disabled");
    }
    DefaultSessionCache cache = new DefaultSessionCache(manager);
    cache.setSessionDataStore(store.getSessionDataStore(manager));
    return cache;
  }

  /**
   * The exception for an app that stores into a session while sessions are disabled; the first
   * time, the message is also logged (the app may catch the exception, the developer must see it).
   */
  public IllegalStateException disabledError() {
    if (warned.compareAndSet(false, true)) {
      LOG.warn(DISABLED_MESSAGE);
    }
    return new IllegalStateException(DISABLED_MESSAGE);
  }

  @Override
  public String toString() {
    return store == null ? "sessions disabled" : "sessions enabled (" + store + ")";
  }
}
