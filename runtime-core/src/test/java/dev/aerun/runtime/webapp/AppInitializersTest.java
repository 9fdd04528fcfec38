package dev.aerun.runtime.webapp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppInitializersTest {
  private static final String SERVICE = "jakarta.servlet.ServletContainerInitializer";

  private static URLClassLoader appLoader(Path app, String serviceFile) throws Exception {
    Path classes = app.resolve("WEB-INF/classes");
    Path file = classes.resolve("META-INF/services/" + SERVICE);
    Files.createDirectories(file.getParent());
    Files.writeString(file, serviceFile);
    return new URLClassLoader(new URL[] {classes.toUri().toURL()}, null);
  }

  @Test
  void anInitializerOfTheAppThatIsMissing_failsNamingItAndItsEntry(@TempDir Path app)
      throws Exception {
    try (URLClassLoader loader = appLoader(app, "# comment\n com.example.Missing # why\n")) {
      AppInitializers.LoadFailure failure =
          assertThrows(
              AppInitializers.LoadFailure.class, () -> AppInitializers.check(loader, SERVICE));

      assertTrue(
          failure
              .getMessage()
              .startsWith(
                  "the ServletContainerInitializer com.example.Missing declared in"
                      + " WEB-INF/classes failed to load (java.lang.ClassNotFoundException"),
          failure.getMessage());
      assertInstanceOf(ClassNotFoundException.class, failure.getCause());
    }
  }

  @Test
  void initializersThatLoad_pass(@TempDir Path app) throws Exception {
    try (URLClassLoader loader = appLoader(app, "java.lang.String\n\n")) {
      AppInitializers.check(loader, SERVICE);
    }
  }

  @Test
  void warEntry_isTheJarOrTheClassesDirectory_andNullOutsideTheApp() {
    String file = "META-INF/services/" + SERVICE;
    assertEquals(
        "WEB-INF/lib/a.jar",
        AppInitializers.warEntry("jar:file:/tmp/w/WEB-INF/lib/a.jar!/" + file, file));
    assertEquals(
        "WEB-INF/classes", AppInitializers.warEntry("file:/tmp/w/WEB-INF/classes/" + file, file));
    assertNull(AppInitializers.warEntry("jar:file:/opt/aerun/lib/ee10/x.jar!/" + file, file));
  }
}
