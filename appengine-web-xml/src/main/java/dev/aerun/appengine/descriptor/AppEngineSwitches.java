package dev.aerun.appengine.descriptor;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code appengine.*} system properties this runtime acts on. Names are matched ignoring letter
 * case, as the platform does; the list serves to recognise a misspelled switch in a descriptor.
 */
public final class AppEngineSwitches {
  /** Every switch, spelled as documented. */
  public static final List<String> KNOWN =
      List.of(
          "appengine.use.HttpConnector",
          "appengine.use.EE8",
          "appengine.use.EE10",
          "appengine.use.EE11",
          "appengine.use.jetty121",
          "appengine.use.allheaders",
          "appengine.use.virtualthreads",
          "appengine.ignore.responseSizeLimit");

  /** Edits (insertions, deletions, substitutions, swaps) that still count as a misspelling. */
  private static final int MAX_EDITS = 2;

  private AppEngineSwitches() {}

  /**
   * The switch {@code name} resembles when it is not one itself: an {@code appengine.*} name within
   * two edits of a known switch, letter case ignored; empty for a known switch or anything else.
   */
  public static Optional<String> resembling(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String lower = name.strip().toLowerCase(Locale.ROOT);
    if (!lower.startsWith("appengine")) {
      return Optional.empty();
    }
    String best = null;
    int bestDistance = MAX_EDITS + 1;
    for (String known : KNOWN) {
      String k = known.toLowerCase(Locale.ROOT);
      if (k.equals(lower)) {
        return Optional.empty();
      }
      int d = distance(lower, k, bestDistance);
      if (d < bestDistance) {
        bestDistance = d;
        best = known;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Optimal string alignment distance between {@code a} and {@code b}, or {@code limit} once it is
   * known to reach it (names are short; the bound keeps long junk cheap).
   */
  private static int distance(String a, String b, int limit) {
    if (Math.abs(a.length() - b.length()) >= limit) {
      return limit;
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int rowMin = Integer.MAX_VALUE;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
        rowMin = Math.min(rowMin, v);
      }
      if (rowMin >= limit) {
        return limit;
      }
    }
    return Math.min(d[a.length()][b.length()], limit);
  }
}
