package dev.aerun.runtime.sessions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.NullSessionDataStore;
import org.eclipse.jetty.session.SessionCache;
import org.eclipse.jetty.session.SessionManager;
import org.junit.jupiter.api.Test;

class WebappSessionsTest {

  @Test
  void descriptorSettingChoosesDisabledOrInMemory() {
    assertFalse(WebappSessions.fromDescriptor(false).isEnabled());
    assertTrue(WebappSessions.fromDescriptor(true).isEnabled());
    assertSame(WebappSessions.inMemory(), WebappSessions.fromDescriptor(true));
  }

  @Test
  void inMemoryIsTheDefaultCacheOverTheNullStore() throws Exception {
    SessionCache cache = WebappSessions.inMemory().newCache((SessionManager) null);
    assertInstanceOf(DefaultSessionCache.class, cache);
    assertInstanceOf(NullSessionDataStore.class, cache.getSessionDataStore());
  }

  @Test
  void pluggedStoreIsUsed() throws Exception {
    NullSessionDataStore store = new NullSessionDataStore();
    SessionCache cache = WebappSessions.enabled(manager -> store).newCache(null);
    assertSame(store, cache.getSessionDataStore());
  }

  @Test
  void disabledSessionsHaveNoCache() {
    assertThrows(IllegalStateException.class, () -> WebappSessions.disabled().newCache(null));
  }

  @Test
  void disabledErrorTellsHowToEnableSessions() {
    IllegalStateException e = WebappSessions.disabled().disabledError();
    assertTrue(e.getMessage().contains("<sessions-enabled>true</sessions-enabled>"));
    assertTrue(e.getMessage().contains("WEB-INF/appengine-web.xml"));
  }
}
