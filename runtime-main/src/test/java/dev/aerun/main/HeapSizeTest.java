package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeapSizeTest {
  private static final long GIB = 1024L * 1024 * 1024;

  @Test
  void belowTheVisibleMemory_relaunchesWithMaxRam() throws Exception {
    assertEquals(Optional.of("-XX:MaxRAM=512m"), HeapSize.relaunchOption("512", 24 * GIB, false));
    assertEquals(Optional.of("-XX:MaxRAM=256m"), HeapSize.relaunchOption(" 256 ", GIB, false));
  }

  @Test
  void unsetOrAsTheContainerLimit_changesNothing() throws Exception {
    assertEquals(Optional.empty(), HeapSize.relaunchOption(null, GIB, false));
    assertEquals(Optional.empty(), HeapSize.relaunchOption("", GIB, false));
    // The platform sets the container limit from the same instance class: no relaunch.
    assertEquals(Optional.empty(), HeapSize.relaunchOption("1024", GIB, false));
    assertEquals(Optional.empty(), HeapSize.relaunchOption("1000", GIB, false)); // rounding
    assertEquals(Optional.empty(), HeapSize.relaunchOption("4096", GIB, false)); // limit wins
  }

  @Test
  void aHeapFromTheCommandLine_wins() throws Exception {
    assertEquals(Optional.empty(), HeapSize.relaunchOption("256", 24 * GIB, true));
  }

  @Test
  void notANumber_isAStartFailureNamingTheVariable() {
    for (String bad : new String[] {"lots", "0", "-5", "1.5"}) {
      StartupException e =
          assertThrows(StartupException.class, () -> HeapSize.relaunchOption(bad, GIB, false));
      assertTrue(e.getMessage().contains("GAE_MEMORY_MB=" + bad), e.getMessage());
    }
  }

  @Test
  void thisJvm_startedWithoutAHeapFlagByTheBuild_isSizedFromItsMemory() throws Exception {
    // The surefire JVM: whatever it was given, a huge GAE_MEMORY_MB never relaunches.
    assertEquals(Optional.empty(), HeapSize.relaunchOption(String.valueOf(Long.MAX_VALUE >> 21)));
  }
}
