package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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

  /** Records the names asked for, then asks its parent; runs {@code onLoad} after each. */
  static final class RecordingLoader extends ClassLoader {
    final List<String> asked = new ArrayList<>();
    Runnable onLoad = () -> {};

    RecordingLoader() {
      super(StartupClassesTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      asked.add(name);
      try {
        return super.loadClass(name, resolve);
      } finally {
        onLoad.run();
      }
    }
  }

  private static final String A = Listed.class.getName();
  private static final String B = StartupClasses.class.getName();
  private static final String C = StartupClassesTest.class.getName();

  private Path list(String... lines) throws Exception {
    return Files.write(dir.resolve(StartupClasses.FILE), List.of(lines));
  }

  @Test
  void run_loadsTheListedClassesInOrder_withoutInitialisingThem_andSkipsWhatIsMissing()
      throws Exception {
    Path list = list("# a comment", A, "", "dev.aerun.main.NoSuchClass", "  " + B + "  ");
    RecordingLoader loader = new RecordingLoader();

    StartupClasses preload = new StartupClasses(list, loader, new CompletableFuture<>());
    preload.run();

    assertEquals(List.of(A, "dev.aerun.main.NoSuchClass", B), loader.asked);
    assertEquals(2, preload.loaded());
    assertFalse(listedInitialised, "a preload runs no static initialiser");
  }

  @Test
  void run_loadsAnEeFoldersClassesWithItsLoader_andSkipsOtherFolders() throws Exception {
    Path list = list("ee10 " + A, B, "ee8 " + C, "ee10 " + C);
    RecordingLoader loader = new RecordingLoader();
    RecordingLoader ee10 = new RecordingLoader();

    StartupClasses preload =
        new StartupClasses(
            list,
            loader,
            CompletableFuture.completedFuture(new StartupClasses.EeLoader("ee10", ee10)));
    preload.run();

    assertEquals(List.of(B), loader.asked);
    assertEquals(List.of(A, C), ee10.asked);
    assertEquals(3, preload.loaded());
  }

  @Test
  void run_keepsEeClassesListedBeforeTheLoaderExists_andLoadsThemFirstOnceItDoes()
      throws Exception {
    Path list = list("ee10 " + A, B, "ee10 " + C);
    RecordingLoader loader = new RecordingLoader();
    RecordingLoader ee10 = new RecordingLoader();
    CompletableFuture<StartupClasses.EeLoader> created = new CompletableFuture<>();
    // The launcher makes the EE loader while the thread loads B.
    loader.onLoad = () -> created.complete(new StartupClasses.EeLoader("ee10", ee10));

    new StartupClasses(list, loader, created).run();

    assertEquals(List.of(B), loader.asked);
    assertEquals(List.of(A, C), ee10.asked);
  }

  @Test
  void run_atTheListsEnd_waitsForTheEeLoader() throws Exception {
    Path list = list(B, "ee10 " + A);
    RecordingLoader ee10 = new RecordingLoader();
    CompletableFuture<StartupClasses.EeLoader> created = new CompletableFuture<>();
    Thread launcher =
        new Thread(
            () -> {
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                return;
              }
              created.complete(new StartupClasses.EeLoader("ee10", ee10));
            });
    launcher.start();

    new StartupClasses(list, new RecordingLoader(), created).run();
    launcher.join();

    assertEquals(List.of(A), ee10.asked);
  }

  @Test
  void run_withoutAList_doesNothing() {
    RecordingLoader loader = new RecordingLoader();

    StartupClasses preload =
        new StartupClasses(dir.resolve(StartupClasses.FILE), loader, new CompletableFuture<>());
    preload.run();

    assertEquals(List.of(), loader.asked);
    assertEquals(0, preload.loaded());
  }
}
