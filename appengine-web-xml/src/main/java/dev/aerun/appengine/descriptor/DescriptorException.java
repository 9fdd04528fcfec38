package dev.aerun.appengine.descriptor;

/**
 * A problem with an {@code appengine-web.xml} file: unreadable, malformed, or not valid.
 *
 * <p>{@link #getMessage()} is always exactly one line of the form {@code <file>:<line>:<column>:
 * <element>: <what is wrong>}. Line and column are 1-based; both are 0 when no position is known
 * (for example when the file cannot be read at all). The element is the name of the XML element the
 * problem is about (the root name {@code appengine-web-app} when the problem concerns the whole
 * file).
 */
public final class DescriptorException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final int column;
  private final String element;
  private final String problem;

  /**
   * Creates an exception.
   *
   * @param file the file name used in messages, never null (null becomes {@code "<unknown>"})
   * @param line 1-based line, or 0 when unknown
   * @param column 1-based column, or 0 when unknown
   * @param element the element name the problem concerns
   * @param problem what is wrong, one line (line breaks are replaced by spaces)
   * @param cause the underlying cause, may be null
   */
  public DescriptorException(
      String file, int line, int column, String element, String problem, Throwable cause) {
    super(format(file, line, column, element, problem), cause);
    this.file = file == null ? "<unknown>" : file;
    this.line = Math.max(0, line);
    this.column = Math.max(0, column);
    this.element = element == null || element.isEmpty() ? "appengine-web-app" : element;
    this.problem = oneLine(problem);
  }

  /** Same as the six-argument constructor without a cause. */
  public DescriptorException(String file, int line, int column, String element, String problem) {
    this(file, line, column, element, problem, null);
  }

  static String format(String file, int line, int column, String element, String problem) {
    return (file == null ? "<unknown>" : oneLine(file))
        + ":"
        + Math.max(0, line)
        + ":"
        + Math.max(0, column)
        + ": "
        + (element == null || element.isEmpty() ? "appengine-web-app" : oneLine(element))
        + ": "
        + oneLine(problem);
  }

  private static String oneLine(String s) {
    return s == null ? "invalid" : s.replaceAll("[\\r\\n]+", " ").strip();
  }

  /** The file name as given to the parser (a path string or a caller-chosen label). */
  public String file() {
    return file;
  }

  /** The 1-based line of the problem, or 0 when unknown. */
  public int line() {
    return line;
  }

  /** The 1-based column of the problem, or 0 when unknown. */
  public int column() {
    return column;
  }

  /** The name of the element the problem concerns. */
  public String element() {
    return element;
  }

  /** The bare description of what is wrong, without the location prefix. */
  public String problem() {
    return problem;
  }
}
