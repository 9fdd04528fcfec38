package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * How much of the machine's CPU went to processes other than this driver and the processes it
 * started, over a run: the machine's busy time ({@code /proc/stat}) less this process's own time
 * and that of its children it has waited for ({@code /proc/self/stat}: the servers, their own
 * children and wrk, all stopped and reaped by the end of a run). This says whether the machine was
 * busy where the load average cannot: the load average at the end of a run counts the run itself,
 * and the one before it still counts the minute before.
 */
public final class OtherCpu {
  private static final Path PROC_STAT = Path.of("/proc/stat");
  private static final Path SELF_STAT = Path.of("/proc/self/stat");

  private OtherCpu() {}

  /**
   * One reading, in clock ticks.
   *
   * @param busyTicks the machine's CPU time spent running anything (not idle, waiting for I/O or
   *     stolen by the hypervisor)
   * @param totalTicks the machine's CPU time in all, steal included
   * @param ownTicks this process's user and system time and its reaped children's
   */
  public record Sample(long busyTicks, long totalTicks, long ownTicks) {
    static final Sample UNKNOWN = new Sample(-1, -1, -1);

    /** Now, or {@link #UNKNOWN} where there is no {@code /proc}. */
    public static Sample now() {
      try {
        return parse(Files.readAllLines(PROC_STAT).get(0), Files.readString(SELF_STAT));
      } catch (IOException | RuntimeException e) {
        return UNKNOWN;
      }
    }

    /**
     * {@code cpuLine}: the {@code cpu} line of {@code /proc/stat} (see {@link
     * Steal.Sample#cpuTicks}). {@code selfStat}: utime, stime, cutime and cstime are fields 14 to
     * 17.
     */
    static Sample parse(String cpuLine, String selfStat) {
      long[] cpu = Steal.Sample.cpuTicks(cpuLine);
      if (cpu == null) {
        return UNKNOWN;
      }
      long total = Arrays.stream(cpu).sum();
      long busy = total - cpu[3] - cpu[4] - cpu[7]; // less idle, iowait and steal
      String[] self = selfStat.substring(selfStat.lastIndexOf(')') + 2).trim().split("\\s+");
      // self[0] is field 3 (state): fields 14 to 17 are self[11] to self[14].
      long own = 0;
      for (int i = 11; i <= 14; i++) {
        own += Long.parseLong(self[i]);
      }
      return new Sample(busy, total, own);
    }

    boolean known() {
      return totalTicks >= 0;
    }

    /**
     * The CPU time other processes used from this reading to {@code later}, in percent of the
     * machine's; NaN if not known.
     */
    public double othersPercentUntil(Sample later) {
      if (!known() || !later.known() || later.totalTicks <= totalTicks) {
        return Double.NaN;
      }
      long others = (later.busyTicks - busyTicks) - (later.ownTicks - ownTicks);
      return 100.0 * Math.max(0, others) / (later.totalTicks - totalTicks);
    }
  }
}
