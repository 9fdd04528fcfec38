package dev.aerun.main;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Points the response codecs (brotli, zstandard) at the native libraries the runtime's home carries
 * in {@code lib/native}, which the images' build takes out of the codecs' jars once.
 *
 * <p>Called where every role starts its runtime ({@link RuntimeStarter}), before the server is
 * built. Without the libraries each codec copies its library out of its jar into {@code
 * java.io.tmpdir} at every start and loads it from there: a few megabytes written and about 40 ms
 * of the main thread's CPU before the server is up. A home without {@code lib/native} (the runtime
 * jar as the build leaves it, on any platform) keeps that behaviour; a property already set (by the
 * operator, with {@code -D} or {@code JAVA_TOOL_OPTIONS}) is left as it is.
 */
final class NativeCodecs {
  /** The folder of {@code home}. */
  static final String FOLDER = "lib/native";

  /** Each codec's library in {@link #FOLDER}, by the system property its loader reads. */
  static final Map<String, String> LIBRARIES =
      Map.of(
          "brotli4j.library.path", "libbrotli.so", // brotli4j's Brotli4jLoader
          "ZstdNativePath", "libzstd-jni.so"); // zstd-jni's Native.load

  private NativeCodecs() {}

  /** Sets, for each library in {@code home}'s {@link #FOLDER}, its loader's property if unset. */
  static void useBundled(
      Optional<Path> home, Function<String, String> property, BiConsumer<String, String> set) {
    if (home.isEmpty()) {
      return;
    }
    Path folder = home.get().resolve(FOLDER);
    LIBRARIES.forEach(
        (name, file) -> {
          Path library = folder.resolve(file);
          if (property.apply(name) == null && Files.isRegularFile(library)) {
            set.accept(name, library.toAbsolutePath().toString());
          }
        });
  }

  /** {@link #useBundled} for this JVM: the runtime jar's home and its system properties. */
  static void useBundled() {
    useBundled(EeClassLoaders.runtimeHome(), System::getProperty, System::setProperty);
  }
}
