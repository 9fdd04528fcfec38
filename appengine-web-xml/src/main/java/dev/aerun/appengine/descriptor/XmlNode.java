package dev.aerun.appengine.descriptor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One element with its position, attributes (no-namespace ones only) and children. */
final class XmlNode {
  final String name;
  final int line;
  final int column;
  final Map<String, String> attributes = new LinkedHashMap<>();
  final List<XmlNode> children = new ArrayList<>();
  final StringBuilder text = new StringBuilder();
  int textLine;
  int textColumn;

  XmlNode(String name, int line, int column) {
    this.name = name;
    this.line = line;
    this.column = column;
  }

  String text() {
    return text.toString().strip();
  }
}
