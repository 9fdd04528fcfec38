package dev.aerun.runtime.security;

/**
 * The one spelling of a decoded request path that security decisions are made on. Jetty's canonical
 * path already decodes, drops path parameters and resolves dot segments, and under its default URI
 * compliance it refuses the rest; the URI compliance an EE8 app gets (Jetty 9.4's, as on the
 * platform) lets empty segments through ({@code //admin//page.html}), which Jetty keeps in the path
 * while the file system ignores them. Constraints and static files are looked up by this spelling
 * instead, so every spelling of a path gets the same answer.
 */
public final class CanonicalPath {
  private CanonicalPath() {}

  /**
   * {@code path} (decoded, as Jetty's canonical path) with empty and {@code .} segments removed and
   * {@code ..} segments resolved (never above the root); a trailing slash is kept. Returns {@code
   * path} itself when there is nothing to change, and null for null.
   */
  public static String of(String path) {
    if (path == null || !needsWork(path)) {
      return path;
    }
    String[] segments = path.split("/", -1);
    StringBuilder out = new StringBuilder(path.length());
    int[] starts = new int[segments.length];
    int depth = 0;
    for (int i = 0; i < segments.length; i++) {
      String segment = segments[i];
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        if (depth > 0) {
          out.setLength(starts[--depth]);
        }
        continue;
      }
      starts[depth++] = out.length();
      out.append('/').append(segment);
    }
    String last = segments[segments.length - 1];
    if (out.length() == 0 || last.isEmpty() || last.equals(".") || last.equals("..")) {
      out.append('/');
    }
    return out.toString();
  }

  private static boolean needsWork(String path) {
    if (path.isEmpty() || path.charAt(0) != '/') {
      return true;
    }
    for (int i = 1; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '/' && path.charAt(i - 1) == '/') {
        return true;
      }
      if (c == '.' && path.charAt(i - 1) == '/') {
        int end = path.indexOf('/', i);
        String segment = end < 0 ? path.substring(i) : path.substring(i, end);
        if (segment.equals(".") || segment.equals("..")) {
          return true;
        }
      }
    }
    return false;
  }
}
