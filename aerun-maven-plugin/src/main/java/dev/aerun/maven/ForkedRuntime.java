package dev.aerun.maven;

import dev.aerun.startline.StartLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A runtime JVM started by a goal, whose output goes to a file: how to wait for its {@link
 * StartLine} and how to stop it (SIGTERM, so that it drains).
 */
final class ForkedRuntime {
  /** An {@code error:} line, the one line a start failure ends with. */
  private static final Pattern ERROR = Pattern.compile("(?m)^error: .*$");

  private ForkedRuntime() {}

  /**
   * Waits until {@code log} shows the start line and returns its port; fails with the runtime's
   * {@code error:} line when it exits first.
   */
  static int awaitStarted(Process process, Path log, Duration timeout)
      throws IOException, InterruptedException, StartFailure {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String output = Files.exists(log) ? Files.readString(log) : "";
      Optional<StartLine> started = StartLine.find(output);
      if (started.isPresent()) {
        return started.get().port();
      }
      if (!process.isAlive()) {
        Matcher error = ERROR.matcher(output);
        throw new StartFailure(
            error.find()
                ? error.group()
                : "the runtime exited with " + process.exitValue() + " before serving");
      }
      if (System.nanoTime() > deadline) {
        throw new StartFailure("the runtime did not start within " + timeout.toSeconds() + " s");
      }
      Thread.sleep(100);
    }
  }

  /** Sends SIGTERM and waits for the drain; kills it if it takes longer than {@code grace}. */
  static int stop(ProcessHandle process, Duration grace) throws InterruptedException {
    process.destroy();
    try {
      process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      process.destroyForcibly();
    } catch (java.util.concurrent.ExecutionException e) {
      // onExit does not fail
    }
    return 0;
  }

  /** The runtime could not start; the message is the runtime's own {@code error:} line. */
  static final class StartFailure extends Exception {
    StartFailure(String message) {
      super(message);
    }
  }
}
