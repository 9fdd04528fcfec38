package dev.aerun.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * CPU time: this JVM's (the load generator's cost) and a server process's by thread, from {@code
 * /proc}. The JIT compilers' share is the CPU time of their threads ({@code C1 CompilerThre*},
 * {@code C2 CompilerThre*}), never the compilers' elapsed time, which counts time spent waiting for
 * a core as compiling.
 */
final class CpuClock {
  private static final long NANOS_PER_TICK = 10_000_000; // USER_HZ is 100 on Linux

  private CpuClock() {}

  /** This JVM's CPU time so far, all threads, user and system; -1 where the JVM does not say. */
  static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /**
   * A process's CPU time so far.
   *
   * @param totalNanos every thread of the process and of its descendants
   * @param compilerNanos the JIT compiler threads' share
   */
  record ProcessCpu(long totalNanos, long compilerNanos) {
    static final ProcessCpu UNKNOWN = new ProcessCpu(-1, -1);

    boolean known() {
      return totalNanos >= 0;
    }

    ProcessCpu minus(ProcessCpu earlier) {
      if (!known() || !earlier.known()) {
        return UNKNOWN;
      }
      return new ProcessCpu(totalNanos - earlier.totalNanos, compilerNanos - earlier.compilerNanos);
    }
  }

  /** The CPU time of {@code pid} and its descendants, by thread; UNKNOWN without {@code /proc}. */
  static ProcessCpu of(long pid) {
    List<Long> pids = new ArrayList<>();
    pids.add(pid);
    ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
    long total = 0;
    long compiler = 0;
    boolean any = false;
    for (long p : pids) {
      Path tasks = Path.of("/proc", Long.toString(p), "task");
      try (Stream<Path> threads = Files.list(tasks)) {
        for (Path thread : (Iterable<Path>) threads::iterator) {
          long nanos = threadNanos(thread);
          if (nanos < 0) {
            continue; // the thread ended meanwhile
          }
          any = true;
          total += nanos;
          if (isCompiler(read(thread.resolve("comm")).trim())) {
            compiler += nanos;
          }
        }
      } catch (IOException | RuntimeException e) {
        // Not Linux, or the process is gone.
      }
    }
    return any ? new ProcessCpu(total, compiler) : ProcessCpu.UNKNOWN;
  }

  /** Whether a thread's name (as {@code /proc} shortens it) is a JIT compiler's. */
  static boolean isCompiler(String comm) {
    return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
  }

  /** A thread's CPU time: {@code schedstat} in nanoseconds, else {@code stat} in ticks. */
  private static long threadNanos(Path thread) {
    try {
      String schedstat = read(thread.resolve("schedstat"));
      long nanos = Long.parseLong(schedstat.trim().split("\\s+")[0]);
      if (nanos > 0) {
        return nanos;
      }
      return statTicks(read(thread.resolve("stat"))) * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** utime + stime of a {@code /proc/.../stat} line (fields 14 and 15, after the name). */
  static long statTicks(String stat) {
    String afterName = stat.substring(stat.lastIndexOf(')') + 2);
    String[] fields = afterName.trim().split("\\s+");
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file);
  }
}
