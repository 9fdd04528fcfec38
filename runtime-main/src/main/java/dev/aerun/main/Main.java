package dev.aerun.main;

/** {@code java -jar runtime-main.jar [options] <app>}: see {@link LaunchOptions#usage()}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    if (!StageCommand.isStage(args)) {
      StartupClasses.preloadInBackground(); // first: it runs beside the whole start
    }
    int exit = Launcher.run(System.getenv(), Launcher.commandLineProperties(), args);
    // Also after a graceful shutdown: threads of libraries (gRPC's event loops) must not keep
    // the stopped process alive.
    System.exit(exit);
  }
}
