package dev.aerun.runtime.sessions;

import java.util.Objects;
import org.eclipse.jetty.session.DatabaseAdaptor;
import org.eclipse.jetty.session.SessionDataStore;
import org.eclipse.jetty.session.SessionDataStoreFactory;
import org.eclipse.jetty.session.SessionManager;

/**
 * Sessions in a SQL database through Jetty's JDBC session store, so that every instance of an app
 * sees the same sessions: PostgreSQL (Cloud SQL on Google Cloud) is what this is tested against.
 *
 * <p>{@code writeBehind} ({@code <async-session-persistence enabled="true">}): a request's session
 * changes are written after the response, in the background, in order ({@link
 * WriteBehindSessionDataStore}); an instance that dies loses what it had not written yet. Otherwise
 * each change is written before the response is sent.
 *
 * @param url the JDBC URL, with credentials as its parameters (e.g. {@code
 *     jdbc:postgresql://127.0.0.1:5432/app?user=app&password=...})
 * @param writeBehind whether to write after the response
 */
public record JdbcSessionStore(String url, boolean writeBehind) implements SessionDataStoreFactory {
  /** The PostgreSQL driver, on the runtime's class path. */
  static final String POSTGRESQL_DRIVER = "org.postgresql.Driver";

  /**
   * How long a session whose attributes did not change may go without being written (Jetty's save
   * period), keeping only its expiry current in the database.
   */
  static final int SAVE_PERIOD_SECONDS = 60;

  public JdbcSessionStore {
    Objects.requireNonNull(url, "url");
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "the session store URL must be jdbc:postgresql://HOST:PORT/DATABASE?user=...: "
              + safe(url));
    }
  }

  @Override
  public SessionDataStore getSessionDataStore(SessionManager manager) throws Exception {
    DatabaseAdaptor database = new DatabaseAdaptor();
    database.setDriverInfo(POSTGRESQL_DRIVER, url);
    SharedJdbcSessionDataStore jdbc = new SharedJdbcSessionDataStore();
    jdbc.setDatabaseAdaptor(database);
    // A session is written when a response commits and again when its last request ends. With no
    // save period the second write always happens and carries this instance's copy: a request that
    // ends late (its client already served) would write back an older session over what another
    // instance wrote meanwhile. With one, only a session changed since the first write is written.
    jdbc.setSavePeriodSec(SAVE_PERIOD_SECONDS);
    return writeBehind ? new WriteBehindSessionDataStore(jdbc) : jdbc;
  }

  /** The URL without its parameters, which may hold a password. */
  static String safe(String url) {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q) + "?...";
  }

  @Override
  public String toString() {
    return "JDBC " + safe(url) + (writeBehind ? ", write-behind" : ", written before the response");
  }
}
