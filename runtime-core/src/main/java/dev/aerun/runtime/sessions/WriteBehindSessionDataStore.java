package dev.aerun.runtime.sessions;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.eclipse.jetty.session.AbstractSessionDataStore;
import org.eclipse.jetty.session.SessionContext;
import org.eclipse.jetty.session.SessionData;
import org.eclipse.jetty.session.SessionDataStore;
import org.eclipse.jetty.util.component.ContainerLifeCycle;

/**
 * A session store that writes behind: {@link #store} takes a snapshot of the session and returns at
 * once; one background thread writes snapshots to the wrapped store in the order they were taken.
 * Until a snapshot is written, {@link #load} on this instance returns it. On stop, what is queued
 * is written before the wrapped store stops. If the process dies first, the queued writes are lost:
 * another instance then sees the session as it was last written.
 *
 * <p>Attribute values are shared with the live session, not copied: an app that mutates an
 * attribute object in place while its write is queued may have the newer state written.
 */
final class WriteBehindSessionDataStore extends ContainerLifeCycle implements SessionDataStore {
  private static final Logger log = Logger.getLogger(WriteBehindSessionDataStore.class.getName());

  private final SessionDataStore delegate;
  private final Map<String, SessionData> pending = new ConcurrentHashMap<>();
  private ExecutorService writer;

  WriteBehindSessionDataStore(SessionDataStore delegate) {
    this.delegate = delegate;
    addBean(delegate, true);
  }

  @Override
  protected void doStart() throws Exception {
    writer =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "aerun-session-writer");
              t.setDaemon(true);
              return t;
            });
    super.doStart();
  }

  @Override
  protected void doStop() throws Exception {
    writer.shutdown();
    if (!writer.awaitTermination(30, TimeUnit.SECONDS)) {
      log.warning(pending.size() + " session writes not done at shutdown");
    }
    super.doStop();
  }

  @Override
  public void initialize(SessionContext context) throws Exception {
    delegate.initialize(context);
  }

  @Override
  public SessionData load(String id) throws Exception {
    SessionData queued = pending.get(id);
    return queued != null ? queued : delegate.load(id);
  }

  @Override
  public void store(String id, SessionData data) throws Exception {
    // The rule the wrapped store applies to a direct write (a session unchanged since it was last
    // written waits for the save period): without it, a request that only read the session would
    // queue its copy, which may be older than another instance's newer one by the time it is
    // written.
    long savePeriodMs =
        delegate instanceof AbstractSessionDataStore store
            ? TimeUnit.SECONDS.toMillis(Math.max(0, store.getSavePeriodSec()))
            : 0;
    boolean due =
        data.isDirty()
            || data.getLastSaved() <= 0
            || (data.isMetaDataDirty()
                && System.currentTimeMillis() - data.getLastSaved() >= savePeriodMs);
    if (!due) {
      return;
    }
    SessionData snapshot = snapshot(data);
    data.clean();
    // The wrapped store inserts a session never saved and updates one saved before: the next
    // snapshot must update, though this one may still be queued.
    data.setLastSaved(System.currentTimeMillis());
    pending.put(id, snapshot);
    writer.execute(
        () -> {
          try {
            delegate.store(id, snapshot);
          } catch (Exception e) {
            log.warning("session " + id + ": write-behind failed: " + e);
          } finally {
            pending.remove(id, snapshot);
          }
        });
  }

  private SessionData snapshot(SessionData data) {
    SessionData copy =
        delegate.newSessionData(
            data.getId(),
            data.getCreated(),
            data.getAccessed(),
            data.getLastAccessed(),
            data.getMaxInactiveMs());
    copy.setContextPath(data.getContextPath());
    copy.setVhost(data.getVhost());
    copy.setLastNode(data.getLastNode());
    copy.setCookieSet(data.getCookieSet());
    copy.setExpiry(data.getExpiry());
    copy.setLastSaved(data.getLastSaved());
    copy.putAllAttributes(data.getAllAttributes());
    copy.setDirty(true);
    return copy;
  }

  @Override
  public boolean delete(String id) throws Exception {
    pending.remove(id);
    return delegate.delete(id);
  }

  @Override
  public SessionData newSessionData(
      String id, long created, long accessed, long lastAccessed, long maxInactiveMs) {
    return delegate.newSessionData(id, created, accessed, lastAccessed, maxInactiveMs);
  }

  @Override
  public Set<String> getExpired(Set<String> candidates) {
    return delegate.getExpired(candidates);
  }

  @Override
  public boolean isPassivating() {
    return delegate.isPassivating();
  }

  @Override
  public boolean exists(String id) throws Exception {
    return pending.containsKey(id) || delegate.exists(id);
  }

  @Override
  public String toString() {
    return "write-behind " + delegate;
  }
}
