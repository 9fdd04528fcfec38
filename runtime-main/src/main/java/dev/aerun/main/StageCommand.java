package dev.aerun.main;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The {@code stage} subcommand: runs {@code dev.aerun.stage.Stage} from {@code lib/stage} beside
 * the runtime jar, in a class loader whose parent is the platform loader. Staging writes images and
 * YAML with libraries the runtime never needs; keeping them in their own folder keeps them off the
 * class path of every running app (each jar there costs heap, see {@link EeClassLoaders}).
 */
final class StageCommand {
  static final String NAME = "stage";
  private static final String STAGE_CLASS = "dev.aerun.stage.Stage";

  private StageCommand() {}

  /** Runs {@code stage} with the arguments after the subcommand; returns the exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Optional<Path> home = runtimeHome();
    Path folder = home.map(h -> h.resolve("lib").resolve("stage")).orElse(null);
    try {
      ClassLoader loader;
      if (folder != null && Files.isDirectory(folder)) {
        loader =
            new URLClassLoader(
                "aerun-stage",
                EeClassLoaders.jarUrls(folder, true),
                ClassLoader.getPlatformClassLoader());
      } else {
        // An IDE or test class path may hold the staging module itself.
        loader = StageCommand.class.getClassLoader();
      }
      Class<?> stage;
      try {
        stage = Class.forName(STAGE_CLASS, true, loader);
      } catch (ClassNotFoundException e) {
        err.println(
            "error: stage is not installed: no "
                + (folder == null ? "lib/stage" : folder)
                + " beside the runtime jar");
        return Launcher.EXIT_START_FAILED;
      }
      Method run =
          stage.getMethod("run", String[].class, Path.class, PrintStream.class, PrintStream.class);
      return (Integer) run.invoke(null, args, home.orElse(null), out, err);
    } catch (InvocationTargetException e) {
      err.println("error: stage failed: " + e.getCause());
      return Launcher.EXIT_START_FAILED;
    } catch (ReflectiveOperationException e) {
      err.println("error: lib/stage does not match this launcher: " + e);
      return Launcher.EXIT_START_FAILED;
    }
  }

  /** Whether the command line asks for the subcommand. */
  static boolean isStage(String[] args) {
    return args.length > 0 && args[0].equals(NAME);
  }

  static String[] rest(String[] args) {
    return Arrays.copyOfRange(args, 1, args.length);
  }

  private static Optional<Path> runtimeHome() {
    try {
      var source = StageCommand.class.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        return Optional.empty();
      }
      Path location = Path.of(source.getLocation().toURI());
      return Files.isRegularFile(location)
          ? Optional.ofNullable(location.getParent())
          : Optional.empty();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
