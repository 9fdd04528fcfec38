package dev.aerun.appengine.descriptor;

import java.util.List;

/**
 * The {@code <resource-files>} block (empty lists when absent).
 *
 * @param includes include path patterns
 * @param excludes exclude path patterns
 */
public record ResourceFiles(List<String> includes, List<String> excludes) {
  /** Copies lists into unmodifiable ones. */
  public ResourceFiles {
    includes = List.copyOf(includes);
    excludes = List.copyOf(excludes);
  }
}
