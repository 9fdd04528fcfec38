package dev.aerun.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code java -jar benchmarks/bench-driver/target/bench-driver.jar [--quick] [options]}: runs the
 * benchmarks and writes the report (see {@link BenchOptions#USAGE}).
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs with {@code args}; the exit code: 0 done, 1 failed, 2 a wrong command line. */
  static int run(String[] args) {
    if (List.of(args).contains("-h") || List.of(args).contains("--help")) {
      System.out.print(BenchOptions.USAGE);
      return 0;
    }
    try {
      if (args.length == 2 && args[0].equals("--jfr-summary")) {
        System.out.print(JfrSummary.summarise(Path.of(args[1]), 30));
      } else if (args.length >= 1 && args[0].equals("--reload")) {
        ReloadBench.run(
            defaultRepo(), args.length > 1 ? Integer.parseInt(args[1]) : 50, System.out);
      } else {
        BenchOptions options = BenchOptions.parse(args, defaultRepo());
        Bench.run(options, "java -jar bench-driver.jar " + String.join(" ", args), System.out);
      }
      return 0;
    } catch (BenchOptions.UsageException e) {
      System.err.println("error: " + e.getMessage());
      System.err.print(BenchOptions.USAGE);
      return 2;
    } catch (Exception e) {
      System.err.println("error: " + e.getMessage());
      return 1;
    }
  }

  /**
   * The repository whose build output runs: {@code -Daerun.bench.repo}, else the one the driver's
   * jar was built in ({@code <repo>/benchmarks/bench-driver/target/bench-driver.jar}), else the
   * working directory.
   */
  static Path defaultRepo() {
    String property = System.getProperty("aerun.bench.repo");
    if (property != null) {
      return Path.of(property).toAbsolutePath().normalize();
    }
    try {
      Path jar =
          Path.of(BenchMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path repo = jar.resolve("../../../..").normalize();
      if (Files.isDirectory(repo.resolve("runtime-main"))) {
        return repo;
      }
    } catch (URISyntaxException | RuntimeException ignored) {
      // Fall back to the working directory.
    }
    return Path.of("").toAbsolutePath();
  }
}
