package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LegacyJarsTest {
  @TempDir Path home;

  @Test
  void folder_isLibLegacyBesideTheRuntimeJar_whenThere() throws Exception {
    assertEquals(Optional.empty(), LegacyJars.folder(Optional.of(home)));
    assertEquals(Optional.empty(), LegacyJars.folder(Optional.empty()));
    Path legacy = Files.createDirectories(home.resolve("lib/legacy"));
    assertEquals(Optional.of(legacy), LegacyJars.folder(Optional.of(home)));
  }

  @Test
  void require_withTheClassesOnTheClassPath_doesNothing() throws Exception {
    // The tests' class path has rpc-legacy, as an IDE's or a -cp launch with lib/legacy has.
    LegacyJars.require();
    assertTrue(Class.forName(LegacyJars.PROBE_CLASS) != null);
    assertFalse(LegacyJars.startedFromJar(), "no launcher agent in a test JVM");
  }
}
