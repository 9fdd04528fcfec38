package dev.aerun.runtime.sessions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The start on an empty database with others is tested against PostgreSQL: SharedSessionsTest. */
class SharedJdbcSessionDataStoreTest {
  @Test
  void aTableOrIndexCreatedMeanwhile_isLookedForAgain() {
    assertTrue(SharedJdbcSessionDataStore.createdMeanwhile(new SQLException("exists", "42P07")));
    assertTrue(SharedJdbcSessionDataStore.createdMeanwhile(new SQLException("unique", "23505")));
  }

  @Test
  void otherFailures_failTheStart() {
    assertFalse(SharedJdbcSessionDataStore.createdMeanwhile(new SQLException("refused", "08001")));
    assertFalse(SharedJdbcSessionDataStore.createdMeanwhile(new SQLException("no state")));
  }
}
