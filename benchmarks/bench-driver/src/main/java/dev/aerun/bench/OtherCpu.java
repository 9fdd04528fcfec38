package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * How much of the machine's CPU went to processes other than this driver and the ones it started,
 * over a run: the machine's busy time ({@code /proc/stat}) less this process's own time and that of
 * its reaped children ({@code /proc/self/stat}: the servers and wrk, all stopped by the end).
 * Unlike the load average, it neither counts the run itself nor the minute before it.
 */
final class OtherCpu {
  private OtherCpu() {}

  /**
   * One reading, in clock ticks: the machine's time spent running anything (not idle, waiting for
   * I/O or stolen), its time in all, and this process's user and system time with its reaped
   * children's.
   */
  record Sample(long busyTicks, long totalTicks, long ownTicks) {
    static final Sample UNKNOWN = new Sample(-1, -1, -1);

    /** Now, or {@link #UNKNOWN} where there is no {@code /proc}. */
    static Sample now() {
      try {
        String cpuLine = Files.readAllLines(Path.of("/proc/stat")).get(0);
        return parse(cpuLine, Files.readString(Path.of("/proc/self/stat")));
      } catch (IOException | RuntimeException e) {
        return UNKNOWN;
      }
    }

    /** {@code selfStat}: utime, stime, cutime and cstime are its fields 14 to 17. */
    static Sample parse(String cpuLine, String selfStat) {
      long[] cpu = Steal.Sample.cpuTicks(cpuLine);
      if (cpu == null) {
        return UNKNOWN;
      }
      long total = Arrays.stream(cpu).sum();
      String[] self = selfStat.substring(selfStat.lastIndexOf(')') + 2).trim().split("\\s+");
      long own = 0;
      for (int i = 11; i <= 14; i++) { // self[0] is field 3
        own += Long.parseLong(self[i]);
      }
      return new Sample(total - cpu[3] - cpu[4] - cpu[7], total, own);
    }

    /** Other processes' CPU time from this reading to {@code later}, in percent; NaN if unknown. */
    double othersPercentUntil(Sample later) {
      if (totalTicks < 0 || later.totalTicks < 0 || later.totalTicks <= totalTicks) {
        return Double.NaN;
      }
      long others = (later.busyTicks - busyTicks) - (later.ownTicks - ownTicks);
      return 100.0 * Math.max(0, others) / (later.totalTicks - totalTicks);
    }
  }
}
