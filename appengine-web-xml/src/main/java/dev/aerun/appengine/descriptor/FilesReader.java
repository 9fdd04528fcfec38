package dev.aerun.appengine.descriptor;

import dev.aerun.appengine.descriptor.AppEngineWebXml.StaticInclude;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads {@code <static-files>}, {@code <resource-files>} and {@code <static-error-handlers>}. */
final class FilesReader extends ElementReader {
  private static final Set<String> ERROR_CODES =
      Set.of("default", "over_quota", "dos_api_denial", "timeout");

  FilesReader(String file, List<String> warnings) {
    super(file, warnings);
  }

  void staticFiles(XmlNode n, DescriptorBuilder b) throws DescriptorException {
    b.staticFilesDeclared = true;
    for (XmlNode c : children(n, Set.of("include", "exclude"))) {
      if (c.name.equals("exclude")) {
        leafNoText(c);
        allowAttributes(c, "path");
        b.staticExcludes.add(requiredAttr(c, "path"));
        continue;
      }
      allowAttributes(c, "path", "expiration");
      String path = requiredAttr(c, "path");
      Optional<Long> exp = Optional.empty();
      if (c.attributes.containsKey("expiration")) {
        exp = Optional.of(expiration(c, c.attributes.get("expiration")));
      }
      // Names that differ only in letter case are one HTTP header: the platform keeps both, a
      // response can carry only one, so the later wins, with a warning. The very same name twice
      // is refused, as on the platform.
      Map<String, String> headers = new LinkedHashMap<>();
      Map<String, String> spelled = new HashMap<>();
      for (XmlNode h : children(c, Set.of("http-header"))) {
        leafNoText(h);
        allowAttributes(h, "name", "value");
        String name = requiredAttr(h, "name");
        if (name.isBlank()) {
          throw fail(h, "attribute name must not be empty");
        }
        String earlier = spelled.put(name.toLowerCase(Locale.ROOT), name);
        if (name.equals(earlier)) {
          throw fail(
              h, "duplicate http-header \"" + name + "\" in <include path=\"" + path + "\">");
        }
        if (earlier != null) {
          headers.remove(earlier);
          warn(
              h,
              "http-header \""
                  + name
                  + "\" repeats \""
                  + earlier
                  + "\" (header names ignore letter case): this later one is used");
        }
        headers.put(name, requiredAttr(h, "value"));
      }
      b.staticIncludes.add(new StaticInclude(path, exp, headers));
    }
  }

  void resourceFiles(XmlNode n, DescriptorBuilder b) throws DescriptorException {
    for (XmlNode c : children(n, Set.of("include", "exclude"))) {
      leafNoText(c);
      allowAttributes(c, "path");
      (c.name.equals("include") ? b.resourceIncludes : b.resourceExcludes)
          .add(requiredAttr(c, "path"));
    }
  }

  void staticErrorHandlers(XmlNode n, DescriptorBuilder b) throws DescriptorException {
    for (XmlNode c : children(n, Set.of("handler"))) {
      leafNoText(c);
      allowAttributes(c, "file", "error-code");
      String code = c.attributes.get("error-code");
      if (code != null && !ERROR_CODES.contains(code)) {
        throw fail(
            c,
            "invalid error-code \""
                + code
                + "\"; expected default, over_quota, dos_api_denial or timeout");
      }
      String file = requiredAttr(c, "file");
      if (isPrivatePath(file)) {
        throw fail(
            c,
            "file \""
                + file
                + "\" is under WEB-INF or META-INF, which is never served;"
                + " a static error handler must be a public file of the app");
      }
      b.staticErrorHandlers.add(new StaticErrorHandler(file, Optional.ofNullable(code)));
    }
  }

  /** A path with a {@code WEB-INF} or {@code META-INF} segment, any case, either separator. */
  private static boolean isPrivatePath(String path) {
    for (String segment : path.split("[/\\\\]")) {
      String lower = segment.trim().toLowerCase(Locale.ROOT);
      if (lower.equals("web-inf") || lower.equals("meta-inf")) {
        return true;
      }
    }
    return false;
  }
}
