package dev.aerun.stage;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/** {@code stage --target appengine-standard}: runs {@link AppEngineStandard} and reports it. */
final class StandardStageCommand {
  private StandardStageCommand() {}

  /** Returns the exit code: 0 staged, 1 not (one {@code error:} line on {@code err}). */
  static int run(
      Path app,
      Path out,
      Path runtimeHome,
      boolean precompileJsps,
      PrintStream stdout,
      PrintStream err) {
    try {
      AppEngineStandard.Staged staged =
          AppEngineStandard.stage(app, out, runtimeHome, precompileJsps);
      for (String note : staged.notes()) {
        err.println("note: " + note);
      }
      stdout.println(
          "staged "
              + staged.name()
              + " for App Engine standard ("
              + staged.runtime()
              + ", "
              + staged.selection().ee()
              + ", "
              + (staged.selection().mode().name().equals("LEGACY_RPC")
                  ? "legacy RPC mode"
                  : "HttpConnector mode")
              + ") into "
              + out);
      stdout.println("entrypoint: " + staged.entrypoint());
      stdout.println(
          "deploy: gcloud app deploy " + out.resolve("WEB-INF").resolve("appengine-web.xml"));
      return 0;
    } catch (StageException e) {
      err.println("error: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      err.println("error: cannot stage: " + e);
      return 1;
    }
  }
}
