package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StartupWarmupTest {
  @Test
  void everyClassItInitialisesExists() {
    // A renamed class after a Jetty upgrade would make the warm-up silently do nothing.
    for (String name : StartupWarmup.CLASSES) {
      assertDoesNotThrow(
          () -> Class.forName(name, false, StartupWarmupTest.class.getClassLoader()), name);
    }
  }

  @Test
  void waitingWithoutAWarmUpReturnsAtOnce() {
    StartupWarmup.awaitDone(); // tests and the training run never start one
    assertTrue(StartupWarmup.done());
  }
}
