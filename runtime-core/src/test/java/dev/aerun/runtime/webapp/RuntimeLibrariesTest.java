package dev.aerun.runtime.webapp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeLibrariesTest {
  @Test
  void hidesTheRuntimesLibraries() {
    List<String> hidden = List.of(RuntimeLibraries.hiddenClasses());
    for (String p :
        List.of("org.slf4j.", "io.grpc.", "com.google.protobuf.", "com.google.common.")) {
      assertTrue(hidden.contains(p), p);
    }
  }

  @Test
  void hidesTheJarsOfThoseLibrariesByLocation_butNotTheServletEnvironmentOrJetty()
      throws Exception {
    List<String> hidden = List.of(RuntimeLibraries.hiddenClasses());
    String slf4j =
        org.slf4j.LoggerFactory.class
            .getProtectionDomain()
            .getCodeSource()
            .getLocation()
            .toURI()
            .toString();
    assertTrue(hidden.contains(slf4j), slf4j + " in " + hidden);
    assertFalse(hidden.stream().anyMatch(h -> h.contains("servlet-api")), hidden::toString);
    assertFalse(hidden.stream().anyMatch(h -> h.contains("jetty-server")), hidden::toString);
  }

  @Test
  void aJarHoldsHiddenClasses_whereverItsEntriesAreListed(@TempDir Path dir) throws Exception {
    Path mixed = dir.resolve("mixed.jar");
    jar(
        mixed,
        "META-INF/MANIFEST.MF",
        "org/example/A.class",
        "org/example/B.class",
        "com/google/common/base/C.class",
        "org/example/D.class");
    assertTrue(RuntimeLibraries.holdsHiddenClasses(mixed.toUri()));
    Path own = dir.resolve("own.jar");
    jar(own, "org/example/A.class", "dev/aerun/X.class");
    assertTrue(RuntimeLibraries.holdsHiddenClasses(own.toUri()));
    Path near = dir.resolve("near.jar");
    jar(near, "com/google/commons/A.class", "io/grpcx/B.class", "org/slf4j", "dev/aerunx/C.class");
    assertFalse(RuntimeLibraries.holdsHiddenClasses(near.toUri()));
  }

  private static void jar(Path file, String... entries) throws IOException {
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      for (String entry : entries) {
        zip.putNextEntry(new ZipEntry(entry));
        zip.closeEntry();
      }
    }
  }

  @Test
  void anAppWithItsOwnProvider_getsNone(@TempDir Path app) throws Exception {
    jar(app.resolve("WEB-INF/lib/slf4j-api.jar"), "org/slf4j/LoggerFactory.class");
    jar(
        app.resolve("WEB-INF/lib/logback-classic.jar"),
        "META-INF/services/org.slf4j.spi.SLF4JServiceProvider");

    assertEquals(Optional.empty(), RuntimeLibraries.slf4jProviderFor(app));
  }

  @Test
  void anAppWithoutSlf4j_getsNone(@TempDir Path app) throws Exception {
    jar(app.resolve("WEB-INF/lib/other.jar"), "com/acme/A.class");

    assertEquals(Optional.empty(), RuntimeLibraries.slf4jProviderFor(app));
  }

  @Test
  void aWarWithOnlyTheApi_isScannedInsideItsJars(@TempDir Path dir) throws Exception {
    Path inner = dir.resolve("slf4j-api.jar");
    jar(inner, "org/slf4j/LoggerFactory.class");
    Path war = dir.resolve("app.war");
    try (OutputStream out = Files.newOutputStream(war);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("WEB-INF/lib/slf4j-api.jar"));
      zip.write(Files.readAllBytes(inner));
      zip.closeEntry();
    }
    Path provider = RuntimeLibraries.slf4jProviderFor(war).orElseThrow();
    assertTrue(provider.getFileName().toString().startsWith("slf4j-jdk14-"), provider::toString);
  }
}
