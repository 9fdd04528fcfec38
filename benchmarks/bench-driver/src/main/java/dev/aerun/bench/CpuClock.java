package dev.aerun.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time: this JVM's (the load generator's cost) and a server process's by thread, from {@code
 * /proc}. The JIT compilers' share is the CPU time of their threads ({@code C1 CompilerThre*},
 * {@code C2 CompilerThre*}), never the compilers' elapsed time, which counts time spent waiting for
 * a core as compiling.
 */
final class CpuClock {
  static final long NANOS_PER_TICK = 10_000_000; // USER_HZ is 100 on Linux

  private CpuClock() {}

  /** This JVM's CPU time so far, all threads, user and system; -1 where the JVM does not say. */
  static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }

  /**
   * A process's CPU time so far, in total and the JIT compilers' share, with each thread's own
   * figure: the difference of two readings ({@link #minus}) sums the growth of each thread, so that
   * a pool thread ending between them (Jetty's pool lets an idle thread go every minute) does not
   * take the CPU time of its whole life out of the window.
   *
   * @param totalNanos every thread of the process and of its descendants
   * @param compilerNanos the JIT compiler threads' share
   * @param threads each thread's CPU time, by process and thread id; empty for a difference
   */
  record ProcessCpu(long totalNanos, long compilerNanos, Map<ThreadId, ThreadCpu> threads) {
    static final ProcessCpu UNKNOWN = new ProcessCpu(-1, -1, Map.of());

    /** A reading of {@code threads}, with its totals; UNKNOWN if there are none. */
    static ProcessCpu reading(Map<ThreadId, ThreadCpu> threads) {
      ProcessCpu sum = new ProcessCpu(0, 0, Map.of()).growthTo(threads);
      return threads.isEmpty()
          ? UNKNOWN
          : new ProcessCpu(sum.totalNanos, sum.compilerNanos, threads);
    }

    boolean known() {
      return totalNanos >= 0;
    }

    /** CPU microseconds per request over {@code requests}, with or without the JIT's; else NaN. */
    double microsPerRequest(double requests, boolean withJit) {
      long nanos = totalNanos - (withJit ? 0 : compilerNanos);
      return known() ? nanos / 1000.0 / Math.max(1, requests) : Double.NaN;
    }

    /**
     * The CPU time used between {@code earlier} and this reading: each thread's growth, a thread
     * that started meanwhile counted from zero, one that ended meanwhile left out (what it used
     * after {@code earlier} is lost with it; an ending pool thread has been idle).
     */
    ProcessCpu minus(ProcessCpu earlier) {
      return known() && earlier.known() ? earlier.growthTo(threads) : UNKNOWN;
    }

    /** Each of {@code later}'s threads' growth from this reading, summed. */
    private ProcessCpu growthTo(Map<ThreadId, ThreadCpu> later) {
      long total = 0;
      long compiler = 0;
      for (Map.Entry<ThreadId, ThreadCpu> thread : later.entrySet()) {
        ThreadCpu before = threads.get(thread.getKey());
        long grown = thread.getValue().nanos() - (before == null ? 0 : before.nanos());
        if (grown < 0) {
          continue; // the id was reused by a new thread: its time so far is unknown
        }
        total += grown;
        compiler += thread.getValue().compiler() ? grown : 0;
      }
      return new ProcessCpu(total, compiler, Map.of());
    }
  }

  record ThreadId(long pid, long tid) {}

  /** A thread's CPU time so far, and whether it is a JIT compiler's. */
  record ThreadCpu(long nanos, boolean compiler) {}

  /** The CPU time of {@code pid} and its descendants, by thread; UNKNOWN without {@code /proc}. */
  static ProcessCpu of(long pid) {
    List<Long> pids = new ArrayList<>(List.of(pid));
    ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
    Map<ThreadId, ThreadCpu> byThread = new HashMap<>();
    for (long p : pids) {
      Path tasks = Path.of("/proc", Long.toString(p), "task");
      try (Stream<Path> threads = Files.list(tasks)) {
        for (Path thread : (Iterable<Path>) threads::iterator) {
          long nanos = threadNanos(thread);
          if (nanos < 0) {
            continue; // the thread ended meanwhile
          }
          boolean compiler = isCompiler(Files.readString(thread.resolve("comm")).trim());
          long tid = Long.parseLong(thread.getFileName().toString());
          byThread.put(new ThreadId(p, tid), new ThreadCpu(nanos, compiler));
        }
      } catch (IOException | RuntimeException e) {
        // Not Linux, or the process is gone.
      }
    }
    return ProcessCpu.reading(byThread);
  }

  /** Whether a thread's name (as {@code /proc} shortens it) is a JIT compiler's. */
  static boolean isCompiler(String comm) {
    return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
  }

  /** A thread's CPU time: {@code schedstat} in nanoseconds, else {@code stat} in ticks. */
  private static long threadNanos(Path thread) {
    try {
      String schedstat = Files.readString(thread.resolve("schedstat"));
      long nanos = Long.parseLong(schedstat.trim().split("\\s+")[0]);
      if (nanos > 0) {
        return nanos;
      }
      return statTicks(Files.readString(thread.resolve("stat"))) * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** utime + stime of a {@code /proc/.../stat} line. */
  static long statTicks(String stat) {
    return statField(stat, 14) + statField(stat, 15);
  }

  /** Field {@code number} (4 or more, as proc(5) counts them) of a {@code /proc/.../stat} line. */
  static long statField(String stat, int number) {
    String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    return Long.parseLong(afterName[number - 3]); // afterName[0] is field 3, the state
  }
}
