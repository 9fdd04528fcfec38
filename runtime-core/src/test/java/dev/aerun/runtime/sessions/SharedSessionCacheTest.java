package dev.aerun.runtime.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.FileSessionDataStore;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.session.SessionHandler;
import org.eclipse.jetty.util.thread.AutoLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedSessionCacheTest {
  @TempDir Path storeDir;
  private Server server;

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  private DefaultSessionCache started(boolean shared) throws Exception {
    server = new Server();
    ContextHandler context = new ContextHandler("/");
    SessionHandler sessions = new SessionHandler();
    DefaultSessionCache cache =
        shared ? new SharedSessionCache(sessions, true) : new DefaultSessionCache(sessions);
    cache.setEvictionPolicy(DefaultSessionCache.EVICT_ON_SESSION_EXIT);
    FileSessionDataStore store = new FileSessionDataStore(); // a store that keeps what it is given
    store.setStoreDir(storeDir.toFile());
    cache.setSessionDataStore(store);
    sessions.setSessionCache(cache);
    context.setHandler(sessions);
    server.setHandler(context);
    server.start();
    return cache;
  }

  /**
   * The request before leaves (writes and evicts the session) while the next one, which found the
   * session in the cache, waits for its lock: the next one must get the session, not none.
   */
  private static ManagedSession nextRequestAsTheLastOneLeaves(DefaultSessionCache cache)
      throws Exception {
    ManagedSession first = cache.newSession("s1", System.currentTimeMillis(), 60_000);
    cache.add("s1", first); // the first request uses it
    first.setAttribute("visits", 1);
    CompletableFuture<ManagedSession> next = new CompletableFuture<>();
    Thread request;
    try (AutoLock lock = first.lock()) {
      request =
          new Thread(
              () -> {
                try {
                  next.complete(cache.get("s1"));
                } catch (Throwable e) {
                  next.completeExceptionally(e);
                }
              });
      request.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (request.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
        Thread.sleep(1); // until it waits for the session's lock
      }
      assertEquals(Thread.State.WAITING, request.getState());
      cache.release(first); // the first request leaves: written, evicted
      assertFalse(first.isResident());
    }
    return next.get(30, TimeUnit.SECONDS);
  }

  @Test
  void aRequestWaitingAsTheLastOneLeaves_getsTheSessionFromTheStore() throws Exception {
    DefaultSessionCache cache = started(true);
    ManagedSession session = nextRequestAsTheLastOneLeaves(cache);
    assertNotNull(session, "the session, read again from the store");
    assertEquals(1, session.getAttribute("visits"));
  }

  @Test
  void jettysOwnCache_answersNoSession_whichIsWhatThisOneFixes() throws Exception {
    DefaultSessionCache cache = started(false);
    assertEquals(null, nextRequestAsTheLastOneLeaves(cache));
  }

  @Test
  void aSessionNotInTheStore_isStillNone() throws Exception {
    DefaultSessionCache cache = started(true);
    assertEquals(null, cache.get("unknown"));
  }
}
