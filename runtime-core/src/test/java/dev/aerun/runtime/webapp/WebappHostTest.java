package dev.aerun.runtime.webapp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.EeVersion;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebappHostTest {

  @TempDir Path tmp;

  @Test
  void load_withoutProviderNamesVersionAndHostsFound() {
    // runtime-core's own classpath holds no EE module.
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> WebappHost.load(EeVersion.EE10, getClass().getClassLoader()));
    assertTrue(e.getMessage().contains("EE10"), e.getMessage());
    assertTrue(e.getMessage().contains("hosts found: none"), e.getMessage());
  }

  @Test
  void containerIncludeJarPattern_matchesOnlyItsOwnJstlImplementation() {
    String ee8 = WebappDefaults.containerIncludeJarPattern(EeVersion.EE8);
    String ee10 = WebappDefaults.containerIncludeJarPattern(EeVersion.EE10);

    assertTrue("/app/lib/ee8/javax.servlet.jsp.jstl-1.2.5.jar".matches(ee8));
    assertTrue("/app/lib/ee10/jakarta.servlet.jsp.jstl-3.0.1.jar".matches(ee10));
    assertFalse("/app/lib/ee10/jakarta.servlet.jsp.jstl-api-3.0.0.jar".matches(ee10));
    assertFalse("/app/lib/ee8/jakarta.servlet.jsp.jstl-api-1.2.7.jar".matches(ee8));
  }

  @Test
  void specRejectsMissingAppLocation() {
    Path missing = tmp.resolve("nope.war");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new WebappSpec(missing, "/", tmp.resolve("work")));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  void specRejectsRelativeContextPath() {
    assertThrows(IllegalArgumentException.class, () -> new WebappSpec(tmp, "app", tmp));
  }
}
