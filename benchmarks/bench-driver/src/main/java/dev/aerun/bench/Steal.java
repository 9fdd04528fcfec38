package dev.aerun.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The CPU time a virtual machine's hypervisor took from it ("steal": the eighth figure of the
 * {@code cpu} line of {@code /proc/stat}), and the rule that keeps it out of the figures.
 *
 * <p>On a virtual machine whose host is busy, steal comes in bursts: a third of the machine's CPU
 * for seconds at a time, then nothing. In such a burst the server and the load generator are both
 * descheduled for milliseconds at a time, whatever they do: a sleeping thread wakes up to 5 ms late
 * at the 99.9th percentile at 5 % steal and well under 1 ms at none, and the peak throughput of the
 * same server swings by two. A phase measured in a burst measures the host. So every timed phase
 * notes the steal over it, and one over {@link #maxPercent} is run again (up to {@link #attempts}
 * times in all, keeping the least disturbed run): what is left disturbed is counted and marked in
 * the report. Before running a phase again it waits for the burst to pass (one-second windows until
 * one sees no more steal than allowed): a phase run again at once mostly lands in the same burst.
 * The waiting has a budget for the whole run, so that a host busy for minutes delays a run by that
 * budget at most. On a machine without steal (bare metal, or a kernel without the figure) nothing
 * is ever run again.
 */
public final class Steal {
  private static final Path PROC_STAT = Path.of("/proc/stat");

  private final double maxPercent;
  private final int attempts;
  private final Supplier<Sample> clock;
  private final Sleeper sleeper;
  private final long calmBudgetMillis;
  private long calmWaitedMillis;
  private final Sample runStart;
  private int phases;
  private int rerun;
  private int disturbed;
  private double worstPercent;

  /**
   * @param maxPercent the most steal, in percent of the machine's CPU time over a phase, that a
   *     phase may see and still count as undisturbed
   * @param attempts how many times a phase runs at most
   */
  public Steal(double maxPercent, int attempts) {
    this(maxPercent, attempts, Duration.ZERO);
  }

  /**
   * @param calmBudget the longest the whole run waits, in all, for a burst of steal to pass before
   *     running a phase again (zero: it runs again at once)
   */
  public Steal(double maxPercent, int attempts, Duration calmBudget) {
    this(maxPercent, attempts, calmBudget, Sample::now, Thread::sleep);
  }

  /** With {@code clock} in place of {@code /proc/stat} and no waiting (for tests). */
  Steal(double maxPercent, int attempts, Supplier<Sample> clock) {
    this(maxPercent, attempts, Duration.ZERO, clock, millis -> {});
  }

  /** With {@code clock} in place of {@code /proc/stat} and {@code sleeper} for sleeping. */
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

  /** Both counters of {@code /proc/stat}'s {@code cpu} line that steal is read from. */
  public record Sample(long stealTicks, long totalTicks) {
    static final Sample UNKNOWN = new Sample(-1, -1);

    /** Now, or {@link #UNKNOWN} where there is no {@code /proc/stat} or no steal in it. */
    public static Sample now() {
      try {
        return parse(Files.readAllLines(PROC_STAT).get(0));
      } catch (IOException | RuntimeException e) {
        return UNKNOWN;
      }
    }

    /** The {@code cpu} line of {@code /proc/stat}. */
    static Sample parse(String cpuLine) {
      long[] ticks = cpuTicks(cpuLine);
      return ticks == null ? UNKNOWN : new Sample(ticks[7], Arrays.stream(ticks).sum());
    }

    /**
     * The machine's CPU time in the {@code cpu} line of {@code /proc/stat}: user, nice, system,
     * idle, iowait, irq, softirq and steal (the guest times after them are counted in user); null
     * if {@code cpuLine} is not that line.
     */
    static long[] cpuTicks(String cpuLine) {
      String[] fields = cpuLine.trim().split("\\s+");
      if (!fields[0].equals("cpu") || fields.length < 9) {
        return null;
      }
      long[] ticks = new long[8];
      for (int i = 0; i < 8; i++) {
        ticks[i] = Long.parseLong(fields[i + 1]);
      }
      return ticks;
    }

    boolean known() {
      return totalTicks >= 0;
    }

    /** Steal in percent of all CPU time from this sample to {@code later}; NaN if not known. */
    public double percentUntil(Sample later) {
      if (!known() || !later.known() || later.totalTicks <= totalTicks) {
        return Double.NaN;
      }
      return 100.0 * (later.stealTicks - stealTicks) / (later.totalTicks - totalTicks);
    }
  }

  /**
   * A phase's result and the steal it saw.
   *
   * @param stealPercent steal over the run kept (NaN where the machine does not say)
   * @param attempts how many runs it took
   * @param disturbed whether even the run kept saw more than the allowed steal
   */
  public record Measured<T>(T value, double stealPercent, int attempts, boolean disturbed) {
    /** ", steal 4.1 % (2 runs)" for a progress line when the steal is worth mentioning, else "". */
    public String note() {
      if (attempts == 1 && !disturbed) {
        return "";
      }
      return ", steal "
          + percent(stealPercent)
          + " ("
          + attempts
          + (attempts == 1 ? " run" : " runs")
          + (disturbed ? ", disturbed" : "")
          + ")";
    }
  }

  /** One timed phase. */
  public interface Phase<T> {
    T run() throws Exception;
  }

  /**
   * Runs {@code phase}, again while the steal over it exceeds the bound (at most {@link #attempts}
   * runs), and returns the run that saw the least.
   */
  public <T> Measured<T> measure(Phase<T> phase) throws Exception {
    Measured<T> best = null;
    int run = 0;
    while (run < attempts) {
      run++;
      Sample before = clock.get();
      T value = phase.run();
      double percent = before.percentUntil(clock.get());
      if (best == null || percent < best.stealPercent()) {
        best = new Measured<>(value, percent, run, isDisturbed(percent));
      }
      if (!isDisturbed(percent)) {
        break;
      }
      if (run < attempts) {
        awaitCalm();
      }
    }
    Measured<T> kept = new Measured<>(best.value(), best.stealPercent(), run, best.disturbed());
    count(kept);
    return kept;
  }

  /**
   * Waits, in one-second windows, until one sees no more steal than allowed, or the run's budget
   * for waiting is spent.
   */
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

  private static final long CALM_WINDOW_MILLIS = 1000;

  public boolean isDisturbed(double percent) {
    return percent > maxPercent;
  }

  private synchronized void count(Measured<?> m) {
    phases++;
    if (m.attempts() > 1) {
      rerun++;
    }
    if (m.disturbed()) {
      disturbed++;
    }
    if (m.stealPercent() > worstPercent) {
      worstPercent = m.stealPercent();
    }
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
  public static String percent(double value) {
    return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.1f %%", value);
  }
}
