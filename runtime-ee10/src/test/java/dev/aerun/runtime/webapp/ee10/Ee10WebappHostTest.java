package dev.aerun.runtime.webapp.ee10;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappHostContract;
import org.junit.jupiter.api.Test;

class Ee10WebappHostTest extends WebappHostContract {
  @Override
  protected EeVersion version() {
    return EeVersion.EE10;
  }

  @Override
  protected String fixturesClass() {
    return Ee10Fixtures.class.getName();
  }

  @Test
  void load_otherVersionNamesTheHostFound() {
    // Named so that every generated variant (EE8, EE11) still picks a version other than its own.
    EeVersion other = version() == EeVersion.EE8 ? EeVersion.EE11 : EeVersion.EE8;

    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> WebappHost.load(other, getClass().getClassLoader()));
    assertTrue(e.getMessage().contains("hosts found: [" + version() + "]"), e.getMessage());
  }
}
