package dev.aerun.appengine.descriptor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What every section reader shares: checks of an element's shape (allowed children, attributes, no
 * stray text) and typed values, each failing with a {@link DescriptorException} at the element.
 */
abstract class ElementReader {
  /** The value types of simple child elements in typed blocks. */
  enum Kind {
    STRING,
    BOOLEAN,
    UINT,
    POSITIVE_INT,
    DOUBLE
  }

  final String file;
  final List<String> warnings;

  ElementReader(String file, List<String> warnings) {
    this.file = file;
    this.warnings = warnings;
  }

  DescriptorException fail(XmlNode n, String problem) {
    return new DescriptorException(file, n.line, n.column, n.name, problem);
  }

  /** Records a warning at {@code n}, in the form of a {@link DescriptorException}'s message. */
  void warn(XmlNode n, String what) {
    warnings.add(DescriptorException.format(file, n.line, n.column, n.name, what));
  }

  /**
   * Whether {@code value} still holds a build placeholder such as {@code ${instances}} (a Maven
   * property nobody filtered). The platform types such elements as strings and takes them as they
   * are; here the element is ignored with a warning, so the default applies.
   */
  boolean unresolvedPlaceholder(XmlNode n, String value) {
    if (!value.contains("${")) {
      return false;
    }
    warn(
        n,
        "\""
            + abbreviate(value)
            + "\" is an unresolved build placeholder; <"
            + n.name
            + "> is ignored and its default applies");
    return true;
  }

  /** A string-typed element's text, or empty when it holds an unresolved placeholder. */
  Optional<String> stringUnlessPlaceholder(XmlNode n) throws DescriptorException {
    String v = string(n);
    return unresolvedPlaceholder(n, v) ? Optional.empty() : Optional.of(v);
  }

  List<XmlNode> children(XmlNode n, Set<String> allowed) throws DescriptorException {
    noText(n);
    for (XmlNode c : n.children) {
      if (!allowed.contains(c.name)) {
        throw fail(
            c,
            "unknown element <"
                + c.name
                + "> in <"
                + n.name
                + ">; expected "
                + String.join(", ", allowed.stream().sorted().map(s -> "<" + s + ">").toList()));
      }
    }
    return n.children;
  }

  /** Children that may each appear at most once. */
  Map<String, XmlNode> singles(XmlNode n, Set<String> allowed) throws DescriptorException {
    noAttributes(n);
    Map<String, XmlNode> out = new LinkedHashMap<>();
    for (XmlNode c : children(n, allowed)) {
      if (out.put(c.name, c) != null) {
        throw fail(c, "<" + c.name + "> appears more than once in <" + n.name + ">");
      }
    }
    return out;
  }

  Map<String, String> typedBlock(XmlNode n, Map<String, Kind> spec) throws DescriptorException {
    Map<String, String> out = new LinkedHashMap<>();
    for (XmlNode c : singles(n, spec.keySet()).values()) {
      String v =
          switch (spec.get(c.name)) {
            case STRING -> string(c);
            case BOOLEAN -> String.valueOf(bool(c));
            case UINT -> String.valueOf(integer(c, 0));
            case POSITIVE_INT -> String.valueOf(integer(c, 1));
            case DOUBLE -> String.valueOf(parseDouble(c, string(c), "value"));
          };
      out.put(c.name, v);
    }
    return out;
  }

  void nameValueList(XmlNode n, String child, Map<String, String> into) throws DescriptorException {
    noAttributes(n);
    for (XmlNode c : children(n, Set.of(child))) {
      leafNoText(c);
      allowAttributes(c, "name", "value");
      String name = requiredAttr(c, "name");
      if (name.isBlank()) {
        throw fail(c, "attribute name must not be empty");
      }
      into.put(name, requiredAttr(c, "value"));
    }
  }

  String string(XmlNode n) throws DescriptorException {
    noAttributes(n);
    if (!n.children.isEmpty()) {
      XmlNode c = n.children.get(0);
      throw fail(c, "unexpected element <" + c.name + "> inside <" + n.name + ">");
    }
    return n.text();
  }

  Optional<String> optString(XmlNode n) throws DescriptorException {
    return n == null ? Optional.empty() : Optional.of(string(n));
  }

  boolean bool(XmlNode n) throws DescriptorException {
    return parseBool(n, string(n), "value");
  }

  Optional<Boolean> optBool(XmlNode n) throws DescriptorException {
    return n == null ? Optional.empty() : Optional.of(bool(n));
  }

  boolean parseBool(XmlNode n, String v, String what) throws DescriptorException {
    String t = v.strip();
    if (t.equalsIgnoreCase("true") || t.equals("1")) {
      return true;
    }
    if (t.equalsIgnoreCase("false") || t.equals("0")) {
      return false;
    }
    throw fail(n, "invalid boolean " + what + " \"" + v + "\"; expected true or false");
  }

  int integer(XmlNode n, int min) throws DescriptorException {
    String v = string(n);
    int i;
    try {
      i = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw fail(n, "invalid integer \"" + v + "\"");
    }
    if (i < min) {
      throw fail(n, "value " + i + " must be at least " + min);
    }
    return i;
  }

  Optional<Integer> optInt(XmlNode n, int min) throws DescriptorException {
    return n == null ? Optional.empty() : Optional.of(integer(n, min));
  }

  double parseDouble(XmlNode n, String v, String what) throws DescriptorException {
    try {
      double d = Double.parseDouble(v.strip());
      if (Double.isFinite(d)) {
        return d;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw fail(n, "invalid number " + what + " \"" + v + "\"");
  }

  long expiration(XmlNode n, String v) throws DescriptorException {
    try {
      return Expiration.parseSeconds(v);
    } catch (IllegalArgumentException e) {
      throw fail(n, e.getMessage());
    }
  }

  String requiredAttr(XmlNode n, String name) throws DescriptorException {
    String v = n.attributes.get(name);
    if (v == null) {
      throw fail(n, "missing required attribute " + name);
    }
    return v;
  }

  void allowAttributes(XmlNode n, String... names) throws DescriptorException {
    Set<String> ok = Set.of(names);
    for (String a : n.attributes.keySet()) {
      if (!ok.contains(a)) {
        throw fail(n, "unknown attribute " + a + " on <" + n.name + ">");
      }
    }
  }

  void noAttributes(XmlNode n) throws DescriptorException {
    allowAttributes(n);
  }

  void noText(XmlNode n) throws DescriptorException {
    if (!n.text().isEmpty()) {
      throw new DescriptorException(
          file,
          n.textLine > 0 ? n.textLine : n.line,
          n.textLine > 0 ? n.textColumn : n.column,
          n.name,
          "unexpected text \"" + abbreviate(n.text()) + "\" inside <" + n.name + ">");
    }
  }

  void leafNoText(XmlNode n) throws DescriptorException {
    if (!n.children.isEmpty()) {
      XmlNode c = n.children.get(0);
      throw fail(c, "unexpected element <" + c.name + "> inside <" + n.name + ">");
    }
    noText(n);
  }

  static String abbreviate(String s) {
    String one = s.replaceAll("\\s+", " ");
    return one.length() > 40 ? one.substring(0, 40) + "..." : one;
  }
}
