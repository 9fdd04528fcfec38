package dev.aerun.appengine.descriptor;

import java.util.Optional;

/**
 * {@code <staging>} options; every field empty when absent.
 *
 * @param enableJarSplitting {@code enable-jar-splitting}
 * @param jarSplittingExcludes {@code jar-splitting-excludes}
 * @param disableJarJsps {@code disable-jar-jsps}
 * @param enableJarClasses {@code enable-jar-classes}
 * @param deleteJsps {@code delete-jsps}
 * @param compileEncoding {@code compile-encoding}
 */
public record Staging(
    Optional<Boolean> enableJarSplitting,
    Optional<String> jarSplittingExcludes,
    Optional<Boolean> disableJarJsps,
    Optional<Boolean> enableJarClasses,
    Optional<Boolean> deleteJsps,
    Optional<String> compileEncoding) {
  static final Staging NONE =
      new Staging(
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty());
}
