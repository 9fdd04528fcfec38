package dev.aerun.runtime.statics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The static files of one deployed app, found once at start-up: a URL path maps to the file to
 * serve and its {@link StaticFileRules.Rule}. Like the platform, which decides what is static when
 * the app is deployed, files added later are not static; a request for a path not in the index
 * costs one hash lookup and goes on to the app.
 *
 * <p>Symbolic links are not followed: a link could point outside the app.
 */
final class StaticFileIndex {

  /**
   * What a URL path serves.
   *
   * @param resourcePath the file or directory to serve, relative to the public root, starting with
   *     {@code /}
   * @param welcomeTarget for a directory, its welcome file (relative to the public root); null for
   *     a file
   * @param rule the caching rule and headers
   */
  record Entry(String resourcePath, String welcomeTarget, StaticFileRules.Rule rule) {
    boolean directory() {
      return welcomeTarget != null;
    }
  }

  private final Map<String, Entry> entries;
  private final Path publicRoot;

  private StaticFileIndex(Path publicRoot, Map<String, Entry> entries) {
    this.publicRoot = publicRoot;
    this.entries = Map.copyOf(entries);
  }

  /**
   * Walks the public root of the app at {@code appRoot}.
   *
   * @param contextPath the webapp's context path ({@code /} or {@code /name}); URL paths start with
   *     it
   * @param welcomeFiles the welcome file names in preference order; a directory whose first
   *     existing welcome file is static is served as that file, at {@code dir/} ({@code dir}
   *     redirects there)
   * @throws IllegalArgumentException if the public root escapes the app or is not a directory
   */
  static StaticFileIndex build(
      Path appRoot, StaticFileRules rules, String contextPath, List<String> welcomeFiles) {
    Path root;
    try {
      // The real path: a link above the app (macOS's /var, say) must not make every file an alias.
      root = appRoot.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot resolve the app directory " + appRoot, e);
    }
    Path publicRoot = root.resolve(rules.publicRoot().replaceFirst("^/", "")).normalize();
    if (!publicRoot.startsWith(root)) {
      throw new IllegalArgumentException(
          "<public-root>" + rules.publicRoot() + "</public-root> is outside the app");
    }
    Map<String, Entry> entries = new HashMap<>();
    if (!Files.isDirectory(publicRoot, LinkOption.NOFOLLOW_LINKS)) {
      if (!rules.publicRoot().isEmpty()) {
        throw new IllegalArgumentException(
            "<public-root>" + rules.publicRoot() + "</public-root> is not a directory of the app");
      }
      return new StaticFileIndex(publicRoot, entries);
    }
    String prefix = contextPath.equals("/") ? "" : contextPath;
    try {
      Files.walkFileTree(
          publicRoot,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              String path = urlPath(publicRoot, dir);
              if (StaticFileRules.neverStatic(path)
                  || StaticFileRules.neverStatic(rules.publicRoot() + path)) {
                return FileVisitResult.SKIP_SUBTREE;
              }
              welcome(dir, path).ifPresent(entry -> addDirectory(path, entry));
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile()) {
                String path = urlPath(publicRoot, file);
                rules
                    .match(path)
                    .ifPresent(rule -> entries.put(prefix + path, new Entry(path, null, rule)));
              }
              return FileVisitResult.CONTINUE;
            }

            private Optional<Entry> welcome(Path dir, String path) {
              for (String name : welcomeFiles) {
                Path candidate = dir.resolve(name);
                if (Files.isRegularFile(candidate, LinkOption.NOFOLLOW_LINKS)) {
                  String target = path + name;
                  // The first existing welcome file decides: a JSP one belongs to the app.
                  return rules.match(target).map(rule -> new Entry(path, target, rule));
                }
              }
              return Optional.empty();
            }

            private void addDirectory(String path, Entry entry) {
              entries.put(prefix + path, entry);
              if (path.length() > 1) {
                entries.put(prefix + path.substring(0, path.length() - 1), entry);
              } else if (!prefix.isEmpty()) {
                entries.put(prefix, entry);
              }
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the static files under " + publicRoot, e);
    }
    return new StaticFileIndex(publicRoot, entries);
  }

  /** {@code /a/b.png} for a file, {@code /a/} for a directory, {@code /} for the root. */
  private static String urlPath(Path root, Path p) {
    StringBuilder path = new StringBuilder();
    for (Path name : root.relativize(p)) {
      if (!name.toString().isEmpty()) {
        path.append('/').append(name);
      }
    }
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      path.append('/');
    }
    return path.length() == 0 ? "/" : path.toString();
  }

  /** The entry for a canonical (decoded, normalized) URL path, or null if it is not static. */
  Entry lookup(String path) {
    return entries.get(path);
  }

  /** The directory static files are served from. */
  Path publicRoot() {
    return publicRoot;
  }

  int size() {
    return entries.size();
  }
}
