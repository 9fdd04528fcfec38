package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.LongStream;

/**
 * The CPU time a virtual machine's hypervisor took from it ("steal": the eighth figure of the
 * {@code cpu} line of {@code /proc/stat}), and the rule that keeps it out of the figures.
 *
 * <p>On a busy host steal comes in bursts: a third of the machine's CPU for seconds, then nothing.
 * In a burst the server and the load generator are both descheduled for milliseconds at a time, so
 * a phase measured in one measures the host. Every timed phase notes the steal over it, in percent
 * of the machine's CPU time; one over {@code maxPercent} is run again (at most {@code attempts}
 * runs, the least disturbed kept), after waiting in one-second windows for the burst to pass (a
 * phase run again at once mostly lands in the same burst). The waiting has a budget for the whole
 * run. Without a steal figure (bare metal) nothing is ever run again.
 */
final class Steal {
  private static final Path PROC_STAT = Path.of("/proc/stat");
  private static final long CALM_WINDOW_MILLIS = 1000;

  private final double maxPercent;
  private final int attempts;
  private final Supplier<Sample> clock;
  private final Sleeper sleeper;
  private final long calmBudgetMillis;
  private final Sample runStart;
  private long calmWaitedMillis;
  private int phases;
  private int rerun;
  private int disturbed;
  private double worstPercent;

  Steal(
      double maxPercent,
      int attempts,
      Duration calmBudget,
      Supplier<Sample> clock,
      Sleeper sleeper) {
    this.maxPercent = maxPercent;
    this.attempts = Math.max(1, attempts);
    this.calmBudgetMillis = calmBudget.toMillis();
    this.clock = clock;
    this.sleeper = sleeper;
    this.runStart = clock.get();
  }

  /** {@link Thread#sleep(long)}, replaceable in tests. */
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  /**
   * A reading of {@code /proc/stat}'s {@code cpu} line, in clock ticks: the steal, the machine's
   * time in all, its time spent running anything (not idle, waiting for I/O or stolen); and this
   * process's user and system time with its reaped children's ({@code /proc/self/stat}: the servers
   * and wrk, all stopped by the end of a run).
   */
  record Sample(long stealTicks, long totalTicks, long busyTicks, long ownTicks) {
    static final Sample UNKNOWN = new Sample(-1, -1, -1, -1);

    /** Now, or {@link #UNKNOWN} where there is no {@code /proc/stat} or no steal in it. */
    static Sample now() {
      try {
        return parse(
            Files.readAllLines(PROC_STAT).get(0), Files.readString(Path.of("/proc/self/stat")));
      } catch (IOException | RuntimeException e) {
        return UNKNOWN;
      }
    }

    /**
     * From the {@code cpu} line's user, nice, system, idle, iowait, irq, softirq and steal ticks
     * (the guest times after them are counted in user) and {@code selfStat}'s utime, stime, cutime
     * and cstime; {@link #UNKNOWN} if {@code cpuLine} is not that line.
     */
    static Sample parse(String cpuLine, String selfStat) {
      String[] fields = cpuLine.trim().split("\\s+");
      if (!fields[0].equals("cpu") || fields.length < 9) {
        return UNKNOWN;
      }
      long[] ticks = Arrays.stream(fields, 1, 9).mapToLong(Long::parseLong).toArray();
      long total = Arrays.stream(ticks).sum();
      long own =
          LongStream.rangeClosed(14, 17).map(f -> CpuClock.statField(selfStat, (int) f)).sum();
      return new Sample(ticks[7], total, total - ticks[3] - ticks[4] - ticks[7], own);
    }

    boolean known() {
      return totalTicks >= 0;
    }

    /** Steal in percent of all CPU time from this sample to {@code later}; NaN if not known. */
    double percentUntil(Sample later) {
      return percentOf(later, later.stealTicks - stealTicks);
    }

    /**
     * Other processes' share of the machine's CPU from this reading to {@code later}, in percent
     * (its busy time less this process's and its reaped children's); NaN if not known. Unlike the
     * load average, it neither counts the run itself nor the minute before it.
     */
    double othersPercentUntil(Sample later) {
      long others = (later.busyTicks - busyTicks) - (later.ownTicks - ownTicks);
      return percentOf(later, Math.max(0, others));
    }

    private double percentOf(Sample later, long ticks) {
      boolean known = known() && later.known() && later.totalTicks > totalTicks;
      return known ? 100.0 * ticks / (later.totalTicks - totalTicks) : Double.NaN;
    }
  }

  /**
   * A phase's result and the steal over the run kept (NaN where the machine does not say), how many
   * runs it took, and whether even that one was disturbed.
   */
  record Measured<T>(T value, double stealPercent, int attempts, boolean disturbed) {
    /** ", steal 4.1 % (2 runs)" for a progress line when the steal is worth mentioning, else "". */
    String note() {
      if (attempts == 1 && !disturbed) {
        return "";
      }
      String runs =
          attempts + (attempts == 1 ? " run" : " runs") + (disturbed ? ", disturbed" : "");
      return ", steal " + percent(stealPercent) + " (" + runs + ")";
    }
  }

  /** Runs {@code phase}, again while the steal over it exceeds the bound; the least disturbed. */
  <T> Measured<T> measure(Callable<T> phase) throws Exception {
    Measured<T> best = null;
    int run = 1;
    for (; ; run++) {
      Sample before = clock.get();
      T value = phase.call();
      double percent = before.percentUntil(clock.get());
      if (best == null || percent < best.stealPercent()) {
        best = new Measured<>(value, percent, run, isDisturbed(percent));
      }
      if (!isDisturbed(percent) || run == attempts) {
        break;
      }
      awaitCalm();
    }
    Measured<T> kept = new Measured<>(best.value(), best.stealPercent(), run, best.disturbed());
    synchronized (this) {
      phases++;
      rerun += run > 1 ? 1 : 0;
      disturbed += kept.disturbed() ? 1 : 0;
      worstPercent = kept.stealPercent() > worstPercent ? kept.stealPercent() : worstPercent;
    }
    return kept;
  }

  /** Waits in one-second windows until one sees no more steal than allowed, within the budget. */
  private void awaitCalm() throws InterruptedException {
    while (true) {
      synchronized (this) {
        if (calmWaitedMillis + CALM_WINDOW_MILLIS > calmBudgetMillis) {
          return;
        }
        calmWaitedMillis += CALM_WINDOW_MILLIS;
      }
      Sample before = clock.get();
      sleeper.sleep(CALM_WINDOW_MILLIS);
      if (!isDisturbed(before.percentUntil(clock.get()))) {
        return;
      }
    }
  }

  boolean isDisturbed(double percent) {
    return percent > maxPercent;
  }

  /** What the run saw, for the report. */
  synchronized Results.StealSummary summary() {
    return new Results.StealSummary(
        runStart.percentUntil(clock.get()),
        maxPercent,
        attempts,
        phases,
        rerun,
        disturbed,
        worstPercent,
        calmWaitedMillis / 1000.0);
  }

  /** "2.1 %", or "?" where steal is not known. */
  static String percent(double value) {
    return Double.isNaN(value) ? "?" : Report.fmt("%.1f %%", value);
  }
}
