package dev.aerun.bench;

import dev.aerun.bench.Results.Failure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** {@code --jfr}: a JFR recording of each EE10 peer under load (jcmd), and its summary. */
final class JfrProfiles {
  private final BenchOptions options;
  private final List<Path> jfrRecordings = new ArrayList<>();

  JfrProfiles(BenchOptions options) {
    this.options = options;
  }

  /** A JFR recording of the server under the CPU scenario's load, for the profile summary. */
  String record(LoadGenerator client, ServerProcess server, LoadGenerator.Load load)
      throws Exception {
    Path dir = Files.createDirectories(options.out().resolve("profiles"));
    Path recording = dir.resolve(server.peer().id + "-" + server.ee() + ".jfr").toAbsolutePath();
    jcmd(server.pid(), "JFR.start", "name=bench", "settings=profile", "filename=" + recording);
    try {
      // Four times the CPU scenario's rate: JFR samples running threads only, so a busier
      // server gives more samples in the same time.
      client.openLoop(
          server.awaitPort(), load, 4.0 * options.profile().cpuRate(), options.profile().measure());
    } finally {
      jcmd(server.pid(), "JFR.stop", "name=bench");
    }
    jfrRecordings.add(recording);
    return "recorded profiles/" + recording.getFileName();
  }

  private void jcmd(long pid, String... command) throws Exception {
    Path jcmd = options.java().resolveSibling("jcmd");
    List<String> line = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
    line.addAll(Arrays.asList(command));
    Process process =
        new ProcessBuilder(line)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("jcmd " + String.join(" ", command) + " hung");
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed");
    }
  }

  /** Summarises every recording into {@code <recording>.txt}; a failure goes to the results. */
  void summarise(Results results) {
    for (Path recording : jfrRecordings) {
      try {
        JfrSummary.write(recording, recording.resolveSibling(recording.getFileName() + ".txt"), 25);
      } catch (Exception e) {
        results.failures.add(
            new Failure("-", "-", "jfr summary", recording.getFileName() + ": " + e));
      }
    }
  }
}
