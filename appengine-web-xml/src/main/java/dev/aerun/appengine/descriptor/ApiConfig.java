package dev.aerun.appengine.descriptor;

import java.util.List;

/**
 * {@code <api-config servlet-class url-pattern>} with its {@code endpoint-servlet-mapping-id}s.
 *
 * @param servletClass the {@code servlet-class} attribute
 * @param urlPattern the {@code url-pattern} attribute
 * @param endpointServletMappingIds the mapping ids in file order
 */
public record ApiConfig(
    String servletClass, String urlPattern, List<String> endpointServletMappingIds) {
  /** Copies the list. */
  public ApiConfig {
    endpointServletMappingIds = List.copyOf(endpointServletMappingIds);
  }
}
