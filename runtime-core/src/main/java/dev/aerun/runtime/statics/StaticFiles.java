package dev.aerun.runtime.statics;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.StaticErrorHandler;
import dev.aerun.runtime.security.AccessCheck;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * An app's static files as its descriptor declares them, for the {@link StaticFilesHandler} that
 * answers them in front of the webapp (in both serving modes, after the request contract and the
 * size limits). Immutable.
 *
 * @param rules which paths are static files, with their expiration and headers
 * @param appRoot the exploded app directory to read them from, or null for the started webapp's
 *     base resource (a WAR is read where it was unpacked)
 * @param errorPages the descriptor's {@code static-error-handlers}: error code ({@code default} for
 *     the one without) to the file, relative to the app root
 * @param cacheBytes how many bytes of their content, {@code ETag}s and precompressed variants may
 *     be kept in memory once read (production: the static set is fixed at start-up); 0 for none,
 *     every request reading the file as it is now (development: files are edited while the app
 *     runs)
 * @param access the webapp's security constraints, asked once it has started: a static file is
 *     served only to whom its path's constraint lets through; anyone else gets the webapp's answer
 *     (a redirect to the login URL or to {@code https}, or 403), as the platform's static handlers
 *     do with the {@code login:} and {@code secure:} it makes from the same constraints
 */
public record StaticFiles(
    StaticFileRules rules,
    Path appRoot,
    Map<String, String> errorPages,
    long cacheBytes,
    Supplier<AccessCheck> access) {
  public StaticFiles {
    Objects.requireNonNull(rules, "rules");
    errorPages = Map.copyOf(errorPages);
    if (cacheBytes < 0) {
      throw new IllegalArgumentException("cacheBytes must not be negative: " + cacheBytes);
    }
    Objects.requireNonNull(access, "access");
  }

  /** The static files {@code descriptor} declares; see the record's parameters. */
  public static StaticFiles from(
      AppEngineWebXml descriptor, Path appRoot, long cacheBytes, Supplier<AccessCheck> access) {
    Map<String, String> errorPages = new LinkedHashMap<>();
    for (StaticErrorHandler handler : descriptor.staticErrorHandlers()) {
      errorPages.put(handler.errorCode().orElse(ErrorPages.DEFAULT), handler.file());
    }
    return new StaticFiles(
        StaticFileRules.from(descriptor), appRoot, errorPages, cacheBytes, access);
  }

  /** As {@link #from(AppEngineWebXml, Path, long, Supplier)}, for a webapp without constraints. */
  public static StaticFiles from(AppEngineWebXml descriptor, Path appRoot, long cacheBytes) {
    return from(descriptor, appRoot, cacheBytes, AccessCheck::none);
  }

  /**
   * The cache bound for a JVM of {@code maxHeapBytes}: a sixteenth of the heap, between 4 and 64
   * MiB (32 MiB for a 512 MiB heap).
   */
  public static long cacheBytesForHeap(long maxHeapBytes) {
    return Math.max(4L << 20, Math.min(64L << 20, maxHeapBytes / 16));
  }
}
