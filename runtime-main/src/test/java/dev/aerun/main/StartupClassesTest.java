package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupClassesTest {
  @TempDir Path dir;

  /** Set by {@link Listed}'s static initialiser, which a preload must not run. */
  static volatile boolean listedInitialised;

  static final class Listed {
    static {
      listedInitialised = true;
    }

    private Listed() {}
  }

  /** Records the names asked for, then asks its parent. */
  static final class RecordingLoader extends ClassLoader {
    final List<String> asked = new ArrayList<>();

    RecordingLoader() {
      super(StartupClassesTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      asked.add(name);
      return super.loadClass(name, resolve);
    }
  }

  @Test
  void run_loadsTheListedClassesInOrder_withoutInitialisingThem_andSkipsWhatIsMissing()
      throws Exception {
    Path list = dir.resolve(StartupClasses.FILE);
    Files.write(
        list,
        List.of(
            "# a comment",
            Listed.class.getName(),
            "",
            "dev.aerun.main.NoSuchClass",
            "  " + StartupClasses.class.getName() + "  "));
    RecordingLoader loader = new RecordingLoader();

    StartupClasses preload = new StartupClasses(list, loader);
    preload.run();

    assertEquals(
        List.of(
            Listed.class.getName(), "dev.aerun.main.NoSuchClass", StartupClasses.class.getName()),
        loader.asked);
    assertEquals(2, preload.loaded());
    assertFalse(listedInitialised, "a preload runs no static initialiser");
  }

  @Test
  void run_withoutAList_doesNothing() {
    RecordingLoader loader = new RecordingLoader();

    StartupClasses preload = new StartupClasses(dir.resolve(StartupClasses.FILE), loader);
    preload.run();

    assertEquals(List.of(), loader.asked);
    assertEquals(0, preload.loaded());
  }
}
