package dev.aerun.runtime.statics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;
import org.eclipse.jetty.http.MimeTypes;

/**
 * The app's {@code <static-error-handlers>}, read into memory at start-up so an error answer never
 * touches the disk. The platform limits these files to 10 KB; a larger one is served but logged.
 *
 * <p>The {@code default} page (the handler without {@code error-code}) answers every error status
 * of a static request. {@code over_quota}, {@code dos_api_denial} and {@code timeout} are
 * conditions of the platform's front end that this runtime does not produce; their files are
 * checked and kept so the front end of a later issue can serve them.
 */
final class ErrorPages {
  static final String DEFAULT = "default";
  private static final Logger log = Logger.getLogger(ErrorPages.class.getName());
  private static final int PLATFORM_LIMIT_BYTES = 10 * 1024;

  /**
   * One error page.
   *
   * @param body the file's bytes
   * @param contentType from the file's extension
   */
  record Page(byte[] body, String contentType) {}

  private final Map<String, Page> pages;

  private ErrorPages(Map<String, Page> pages) {
    this.pages = Map.copyOf(pages);
  }

  /**
   * Reads the files named by {@code handlers} (error code to path relative to {@code appRoot}).
   *
   * @throws IllegalArgumentException if a file is missing or outside the app; the message names the
   *     handler
   */
  static ErrorPages load(Path appRoot, Map<String, String> handlers) {
    Path root = appRoot.toAbsolutePath().normalize();
    Map<String, Page> pages = new HashMap<>();
    handlers.forEach(
        (code, file) -> {
          Path path = root.resolve(file.replaceFirst("^/+", "")).normalize();
          if (!path.startsWith(root)
              || !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)
              || !isPublic(root, path)) {
            throw new IllegalArgumentException(
                "<static-error-handlers>: the "
                    + code
                    + " handler's file \""
                    + file
                    + "\" is not a file of the app");
          }
          try {
            byte[] body = Files.readAllBytes(path);
            if (body.length > PLATFORM_LIMIT_BYTES) {
              log.warning(
                  "static error handler "
                      + file
                      + " is "
                      + body.length
                      + " bytes; the platform accepts at most "
                      + PLATFORM_LIMIT_BYTES);
            }
            String type = MimeTypes.DEFAULTS.getMimeByExtension(path.getFileName().toString());
            pages.put(code, new Page(body, type == null ? "application/octet-stream" : type));
          } catch (IOException e) {
            throw new UncheckedIOException("Cannot read static error handler " + path, e);
          }
        });
    return new ErrorPages(pages);
  }

  /**
   * Whether {@code file}, with every link on its way resolved, is still in the app and outside
   * {@code WEB-INF}/{@code META-INF}: a linked directory must not lead an error page there.
   */
  private static boolean isPublic(Path root, Path file) {
    try {
      Path realRoot = root.toRealPath();
      Path real = file.toRealPath();
      return real.startsWith(realRoot)
          && !StaticFileRules.neverStatic(
              "/" + realRoot.relativize(real).toString().replace('\\', '/'));
    } catch (IOException e) {
      return false;
    }
  }

  /** The page answering {@code status}, or null to use the server's plain error answer. */
  Page forStatus(int status) {
    return status >= 400 ? pages.get(DEFAULT) : null;
  }
}
