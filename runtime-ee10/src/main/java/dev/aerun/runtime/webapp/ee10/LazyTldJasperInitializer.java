package dev.aerun.runtime.webapp.ee10;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.webapp.WebappDefaults;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.net.URL;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.jasper.JasperException;
import org.apache.jasper.compiler.TldCache;
import org.apache.jasper.servlet.TldScanner;
import org.apache.tomcat.util.descriptor.tld.TaglibXml;
import org.apache.tomcat.util.descriptor.tld.TldResourcePath;
import org.eclipse.jetty.ee10.apache.jsp.JettyJasperInitializer;
import org.eclipse.jetty.ee10.apache.jsp.JettyTldPreScanned;
import org.xml.sax.SAXException;

/**
 * Jetty's JSP initializer in place of its own, parsing the container's tag library descriptors
 * (JSTL's 15 to 22) when a JSP is first compiled rather than at start, where they were a large part
 * of a JSP app's start: an app whose JSPs {@code stage} compiled never parses them.
 *
 * <p>At start it parses what can register listeners, as Jasper does: the descriptors of the app's
 * {@code web.xml}, {@code WEB-INF} and {@code WEB-INF/lib} jars, whose {@code <listener>}s are
 * added to the app now. The container's declare none (a test reads each EE version's), so they
 * wait. The first JSP compiled scans everything as Jetty would have at start, in the same order, so
 * which descriptor a tag library's URI names is the same.
 */
public final class LazyTldJasperInitializer extends JettyJasperInitializer {
  /** Jasper's init parameters for the descriptors' parser, read as its initializer reads them. */
  private static final String VALIDATE_PARAMETER = "org.apache.jasper.XML_VALIDATE_TLD";

  private static final String BLOCK_EXTERNAL_PARAMETER = "org.apache.jasper.XML_BLOCK_EXTERNAL";

  /** The jars' descriptors Jetty's MetaInfConfiguration found (container and WEB-INF/lib). */
  private static final String JETTY_TLDS_ATTRIBUTE = "org.eclipse.jetty.tlds";

  private final EeVersion version;

  LazyTldJasperInitializer(EeVersion version) {
    this.version = version;
  }

  @Override
  public void onStartup(Set<Class<?>> types, ServletContext context) throws ServletException {
    // Jetty drops its list of the jars' descriptors once the webapp is configured: kept for later.
    Collection<URL> found = jarTlds(context);
    super.onStartup(types, context); // the app's descriptors: its listeners, and errors, now
    context.setAttribute(TldCache.SERVLET_CONTEXT_ATTRIBUTE_NAME, new Lazy(context, this, found));
  }

  @Override
  public TldScanner newTldScanner(
      ServletContext context, boolean namespaceAware, boolean validate, boolean blockExternal) {
    Collection<URL> found = jarTlds(context);
    if (found == null) {
      return super.newTldScanner(context, namespaceAware, validate, blockExternal);
    }
    List<URL> apps =
        found.stream().filter(url -> !WebappDefaults.isContainerTld(version, url)).toList();
    return new JettyTldPreScanned(context, namespaceAware, validate, blockExternal, apps);
  }

  /** Every descriptor, as Jetty's initializer scans them at start ({@code found}: the jars'). */
  TldCache scanAll(ServletContext context, Collection<URL> found) throws IOException, SAXException {
    boolean validate = Boolean.parseBoolean(context.getInitParameter(VALIDATE_PARAMETER));
    String block = context.getInitParameter(BLOCK_EXTERNAL_PARAMETER);
    boolean blockExternal = block == null || Boolean.parseBoolean(block);
    TldScanner scanner =
        found == null
            ? super.newTldScanner(context, true, validate, blockExternal)
            : new JettyTldPreScanned(context, true, validate, blockExternal, found);
    scanner.scan();
    return new TldCache(
        context, scanner.getUriTldResourcePathMap(), scanner.getTldResourcePathTaglibXmlMap());
  }

  @SuppressWarnings("unchecked")
  private static Collection<URL> jarTlds(ServletContext context) {
    // The jars' descriptors Jetty's MetaInfConfiguration found (container and WEB-INF/lib).
    return (Collection<URL>) context.getAttribute(JETTY_TLDS_ATTRIBUTE);
  }

  /** Jasper's descriptor cache, filled on its first question by {@link #scanAll}. */
  static final class Lazy extends TldCache {
    private final ServletContext context;
    private final LazyTldJasperInitializer initializer;
    private final Collection<URL> jarTlds;
    private volatile TldCache scanned;

    Lazy(ServletContext context, LazyTldJasperInitializer initializer, Collection<URL> jarTlds) {
      super(context, Map.of(), Map.of());
      this.context = context;
      this.initializer = initializer;
      this.jarTlds = jarTlds == null ? null : List.copyOf(jarTlds);
    }

    /** The jars' descriptors Jetty found, which the first question has parsed. */
    Collection<URL> jarTlds() {
      return jarTlds;
    }

    /**
     * Whether a JSP compiled so far asked for a tag library (and so every descriptor is parsed).
     */
    boolean scannedYet() {
      return scanned != null;
    }

    @Override
    public TldResourcePath getTldResourcePath(String uri) {
      return scanned().getTldResourcePath(uri);
    }

    @Override
    public TaglibXml getTaglibXml(TldResourcePath path) throws JasperException {
      return scanned().getTaglibXml(path);
    }

    private TldCache scanned() {
      TldCache cache = scanned;
      if (cache == null) {
        synchronized (this) {
          cache = scanned;
          if (cache == null) {
            try {
              cache = initializer.scanAll(context, jarTlds);
            } catch (IOException | SAXException e) {
              // Those the start parsed were fine: this is the container's, which a test parses.
              throw new IllegalStateException("cannot parse the tag library descriptors", e);
            }
            scanned = cache;
          }
        }
      }
      return cache;
    }
  }
}
