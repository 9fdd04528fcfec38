package dev.aerun.runtime.statics;

import java.util.BitSet;

/**
 * An App Engine path glob: {@code **} matches any characters including {@code /}, {@code *} any
 * characters but {@code /}, every other character itself.
 *
 * <p>Matching runs the glob as a set of positions advanced one path character at a time, so it
 * takes at most (path length × pattern length) steps whatever the pattern: a glob of many {@code
 * **} cannot backtrack exponentially as the equivalent regular expression does.
 */
final class PathGlob {
  private static final int STAR = -1;
  private static final int STAR_STAR = -2;

  /** The pattern, one element per character to match, stars as {@link #STAR}/{@link #STAR_STAR}. */
  private final int[] tokens;

  private final String glob;

  private PathGlob(String glob, int[] tokens) {
    this.glob = glob;
    this.tokens = tokens;
  }

  /** Compiles {@code glob}; one without a leading {@code /} gets one. */
  static PathGlob compile(String glob) {
    String path = glob.startsWith("/") ? glob : "/" + glob;
    int[] tokens = new int[path.length()];
    int n = 0;
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '*' && i + 1 < path.length() && path.charAt(i + 1) == '*') {
        tokens[n++] = STAR_STAR;
        i++;
      } else {
        tokens[n++] = c == '*' ? STAR : c;
      }
    }
    return new PathGlob(path, java.util.Arrays.copyOf(tokens, n));
  }

  /** Whether the whole of {@code path} matches. */
  boolean matches(String path) {
    int m = tokens.length;
    BitSet current = new BitSet(m + 1);
    BitSet next = new BitSet(m + 1);
    current.set(0);
    closeOverEmptyStars(current);
    for (int j = 0; j < path.length() && !current.isEmpty(); j++) {
      char c = path.charAt(j);
      next.clear();
      for (int i = current.nextSetBit(0); i >= 0 && i < m; i = current.nextSetBit(i + 1)) {
        int token = tokens[i];
        if (token == STAR_STAR || token == STAR && c != '/') {
          next.set(i); // the star takes this character and may take more
        } else if (token == c) {
          next.set(i + 1);
        }
      }
      closeOverEmptyStars(next);
      BitSet swap = current;
      current = next;
      next = swap;
    }
    return current.get(m);
  }

  /** A star may match nothing: a position before one is also a position after it. */
  private void closeOverEmptyStars(BitSet positions) {
    for (int i = 0; i < tokens.length; i++) {
      if (positions.get(i) && (tokens[i] == STAR || tokens[i] == STAR_STAR)) {
        positions.set(i + 1);
      }
    }
  }

  @Override
  public String toString() {
    return glob;
  }
}
