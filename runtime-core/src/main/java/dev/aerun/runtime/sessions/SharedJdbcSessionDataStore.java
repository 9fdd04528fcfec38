package dev.aerun.runtime.sessions;

import java.sql.SQLException;
import org.eclipse.jetty.session.JDBCSessionDataStore;

/**
 * Jetty's JDBC session store for instances that share a database. Instances that start at once on
 * an empty database each find no session table and each create it: all but one then fail (on
 * PostgreSQL, {@code relation "jettysessions" already exists}), and with them their start. Here
 * such an instance looks again, and finds the table and indexes another one made.
 */
final class SharedJdbcSessionDataStore extends JDBCSessionDataStore {
  /** How often an instance prepares the tables while others are creating them. */
  private static final int ATTEMPTS = 3;

  @Override
  public void initialize() throws Exception {
    try {
      super.initialize();
    } catch (SQLException e) {
      prepareAgain(e);
    }
  }

  private void prepareAgain(SQLException first) throws SQLException {
    SQLException last = first;
    for (int attempt = 2; attempt <= ATTEMPTS && createdMeanwhile(last); attempt++) {
      try {
        _sessionTableSchema.prepareTables();
        return;
      } catch (SQLException e) {
        last = e;
      }
    }
    throw last;
  }

  /**
   * Whether {@code e} is PostgreSQL's answer to creating a table or index that another connection
   * has just created: the object exists ({@code 42P07}), or the catalogue's unique index caught the
   * two creates at once ({@code 23505}).
   */
  static boolean createdMeanwhile(SQLException e) {
    return "42P07".equals(e.getSQLState()) || "23505".equals(e.getSQLState());
  }
}
