package dev.aerun.runtime.server;

import org.eclipse.jetty.http.HttpFields;

/**
 * The fields a response's header wrappers end in. A {@link HttpFields.Mutable.Wrapper} only
 * intercepts changes, so the fields below it read the same; but a lookup or a walk through it costs
 * an iterator (two objects) per call, where the fields themselves are read by index.
 */
public final class FieldsBelow {
  private FieldsBelow() {}

  /** {@code headers} without its wrappers: for reading only, never for changes. */
  public static HttpFields of(HttpFields.Mutable headers) {
    HttpFields.Mutable fields = headers;
    while (fields instanceof HttpFields.Mutable.Wrapper wrapper) {
      fields = wrapper.getWrapped();
    }
    return fields;
  }
}
