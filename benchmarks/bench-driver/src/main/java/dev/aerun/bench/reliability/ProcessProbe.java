package dev.aerun.bench.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Looks at a server process from outside: heap in use right after a full collection (through {@code
 * jcmd}, which runs one), and its threads and open file descriptors from {@code /proc}.
 */
final class ProcessProbe {
  /**
   * G1's and the other collectors' {@code GC.heap_info} line: {@code … total 1048576K, used 123K}.
   */
  private static final Pattern USED = Pattern.compile("total \\d+K, used (\\d+)K");

  private final Path jcmd;

  /**
   * @param java the server JVMs' {@code java}; its {@code jcmd} sits beside it
   */
  ProcessProbe(Path java) {
    this.jcmd = java.resolveSibling("jcmd");
  }

  /** One look at a process. */
  record Sample(double elapsedSeconds, long heapAfterGcBytes, int threads, int fds) {}

  Sample sample(long pid, double elapsedSeconds) throws IOException, InterruptedException {
    return new Sample(elapsedSeconds, heapAfterGc(pid), threads(pid), fds(pid));
  }

  /** Runs a full collection in {@code pid} and returns the heap in use right after it. */
  long heapAfterGc(long pid) throws IOException, InterruptedException {
    run(pid, "GC.run");
    Matcher m = USED.matcher(run(pid, "GC.heap_info"));
    if (!m.find()) {
      throw new IOException("jcmd " + pid + " GC.heap_info: no 'used' figure");
    }
    return Long.parseLong(m.group(1)) * 1024;
  }

  static int threads(long pid) throws IOException {
    return count(Path.of("/proc", Long.toString(pid), "task"));
  }

  static int fds(long pid) throws IOException {
    return count(Path.of("/proc", Long.toString(pid), "fd"));
  }

  private static int count(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return (int) entries.count();
    }
  }

  private String run(long pid, String command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), command))
            .redirectErrorStream(true)
            .start();
    String output;
    try (InputStream in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("jcmd " + pid + " " + command + " failed: " + output.strip());
    }
    return output;
  }

  /** Whether the file contains {@code text}, read line by line (server logs can be large). */
  static boolean logContains(Path log, String text) throws IOException {
    try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      return lines.anyMatch(line -> line.contains(text));
    } catch (java.io.UncheckedIOException e) {
      // A line that is not UTF-8: read it as bytes instead.
      return new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1).contains(text);
    }
  }
}
