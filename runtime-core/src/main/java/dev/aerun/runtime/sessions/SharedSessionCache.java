package dev.aerun.runtime.sessions;

import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.session.SessionManager;

/**
 * The session cache of a store that instances share: a session stays in it only while requests use
 * it ({@link #EVICT_ON_SESSION_EXIT}), so the next request reads what the last one wrote; a new
 * session is written at once; unless {@code flushOnCommit} is false (the store writes behind), a
 * request's changes are written before its response is sent.
 *
 * <p>A request that finds its session in the cache just as the request before it leaves waits for
 * the session's lock while that request writes and evicts it. Jetty's cache then answers with no
 * session at all, and the request would get a new, empty one (and the client a new cookie): a
 * browser's parallel requests would lose the user's session. Here such a request reads the session
 * again, now from the store, which has what the leaving request wrote.
 */
final class SharedSessionCache extends DefaultSessionCache {
  /** How often a request reads a session that was evicted while it waited for it. */
  private static final int ATTEMPTS = 3;

  SharedSessionCache(SessionManager manager, boolean flushOnCommit) {
    super(manager);
    setEvictionPolicy(EVICT_ON_SESSION_EXIT);
    setSaveOnCreate(true);
    setFlushOnResponseCommit(flushOnCommit);
  }

  @Override
  protected ManagedSession getAndEnter(String id, boolean enter) throws Exception {
    for (int attempt = 1; ; attempt++) {
      boolean cached = doGet(id) != null;
      ManagedSession session = super.getAndEnter(id, enter);
      if (session != null || !cached || attempt == ATTEMPTS) {
        return session;
      }
    }
  }
}
