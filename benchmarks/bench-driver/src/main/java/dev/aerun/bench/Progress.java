package dev.aerun.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress display: one line per step, with the time elapsed, the step's number and, when the
 * step ends, its headline figure.
 */
final class Progress {
  private final PrintStream out;
  private final long startNanos = System.nanoTime();
  private int done;

  Progress(PrintStream out) {
    this.out = out;
  }

  synchronized void begin(String what) {
    out.printf(Locale.ROOT, "[%s] %3d  %-52s", elapsed(), done + 1, what);
    out.flush();
  }

  /** The step begun last ends with {@code figure}. */
  synchronized void end(String figure) {
    done++;
    out.println(figure);
    out.flush();
  }

  /** A line of its own, outside any step. */
  synchronized void note(String text) {
    out.printf(Locale.ROOT, "[%s] %s%n", elapsed(), text);
    out.flush();
  }

  private String elapsed() {
    long seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
    return Report.fmt("%02d:%02d", seconds / 60, seconds % 60);
  }
}
