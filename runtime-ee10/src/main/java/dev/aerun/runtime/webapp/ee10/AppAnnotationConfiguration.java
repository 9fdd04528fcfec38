package dev.aerun.runtime.webapp.ee10;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.webapp.WebappDefaults;
import java.net.URI;
import java.util.List;
import org.eclipse.jetty.annotations.AnnotationParser;
import org.eclipse.jetty.ee10.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee10.webapp.Configuration;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.util.resource.Resource;

/**
 * Jetty's annotation scan, without reading the container's tag-library jar when nothing can come of
 * it (see {@link WebappDefaults#scansContainerJars}). That jar is let into the webapp's metadata
 * for its tag library descriptors only, and reading its 1,700 to 2,000 classes was the largest part
 * of the JSP sample's start.
 */
final class AppAnnotationConfiguration extends AnnotationConfiguration {

  @Override
  public Class<? extends Configuration> replaces() {
    // Jetty's own would otherwise run too (its ServiceLoader file lists it), scanning twice.
    return AnnotationConfiguration.class;
  }

  @Override
  public void parseContainerPath(WebAppContext context, AnnotationParser parser) {
    // Jetty sets the class inheritance map before the scan iff an initializer's @HandlesTypes
    // asks for types.
    boolean typesAsked = context.getAttribute(CLASS_INHERITANCE_MAP) != null;
    List<URI> jars =
        context.getMetaData().getContainerResources().stream().map(Resource::getURI).toList();
    if (!WebappDefaults.scansContainerJars(EeVersion.EE10, typesAsked, jars)) {
      return;
    }
    try {
      super.parseContainerPath(context, parser);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      // ee8's declares Exception (it only queues the jars: the scan runs, and fails, later).
      throw new IllegalStateException("Cannot queue the container jars' annotation scan", e);
    }
  }
}
