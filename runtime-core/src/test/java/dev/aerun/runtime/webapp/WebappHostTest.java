package dev.aerun.runtime.webapp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.EeVersion;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebappHostTest {

  @TempDir Path tmp;

  @Test
  void load_withoutProviderNamesVersionAndHostsFound() {
    // runtime-core's own classpath holds no EE module.
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> WebappHost.load(EeVersion.EE10, getClass().getClassLoader()));
    assertTrue(e.getMessage().contains("EE10"), e.getMessage());
    assertTrue(e.getMessage().contains("hosts found: none"), e.getMessage());
  }

  @Test
  void containerIncludeJarPattern_matchesOnlyItsOwnJstlImplementation() {
    String ee8 = WebappDefaults.containerIncludeJarPattern(EeVersion.EE8);
    String ee10 = WebappDefaults.containerIncludeJarPattern(EeVersion.EE10);

    assertTrue("/app/lib/ee8/javax.servlet.jsp.jstl-1.2.5.jar".matches(ee8));
    assertTrue("/app/lib/ee10/jakarta.servlet.jsp.jstl-3.0.1.jar".matches(ee10));
    assertFalse("/app/lib/ee10/jakarta.servlet.jsp.jstl-api-3.0.0.jar".matches(ee10));
    assertFalse("/app/lib/ee8/jakarta.servlet.jsp.jstl-api-1.2.7.jar".matches(ee8));
  }

  @Test
  void containerIncludeJarPattern_onEe11_isGlassfishWasp() {
    String ee11 = WebappDefaults.containerIncludeJarPattern(EeVersion.EE11);

    assertTrue("/app/lib/ee11/wasp-4.0.0.jar".matches(ee11));
    assertFalse("/app/lib/ee11/jakarta.servlet.jsp.jstl-api-3.0.2.jar".matches(ee11));
  }

  @Test
  void scansContainerJars_notTheTagLibraryJar_unlessAnInitializerAsksForTypes() {
    URI jstl = URI.create("jar:file:///opt/aerun/lib/ee8/javax.servlet.jsp.jstl-1.2.5.jar!/");
    URI other = URI.create("jar:file:///opt/aerun/lib/ee8/some-container-library-1.0.jar!/");

    assertFalse(WebappDefaults.scansContainerJars(EeVersion.EE8, false, List.of(jstl)));
    assertFalse(WebappDefaults.scansContainerJars(EeVersion.EE8, false, List.of()));
    assertTrue(WebappDefaults.scansContainerJars(EeVersion.EE8, true, List.of(jstl)));
    assertTrue(WebappDefaults.scansContainerJars(EeVersion.EE8, false, List.of(jstl, other)));
    // Another EE version's tag-library jar is not this one's.
    assertTrue(WebappDefaults.scansContainerJars(EeVersion.EE10, false, List.of(jstl)));
    assertFalse(
        WebappDefaults.scansContainerJars(
            EeVersion.EE11,
            false,
            List.of(URI.create("file:///opt/aerun/lib/ee11/wasp-4.0.0.jar"))));
  }

  @Test
  void contextAttributes_withJspScanTheJstlJarAndSwapJettysInitializer_withoutLeaveAllOut() {
    WebappSpec spec = new WebappSpec(tmp, "/", tmp.resolve("work"));

    assertEquals(
        Map.of(
            WebappDefaults.CONTAINER_INCLUDE_JAR_PATTERN,
            WebappDefaults.containerIncludeJarPattern(EeVersion.EE11),
            WebappDefaults.CONTAINER_INITIALIZER_EXCLUSION_PATTERN,
            WebappDefaults.replacedJspInitializers(EeVersion.EE11)),
        WebappDefaults.contextAttributes(spec.withJsp(true), EeVersion.EE11));
    // With JSP, only Jetty's own initializer is left out (the EE module adds its own instead).
    assertTrue(
        "org.eclipse.jetty.ee11.apache.jsp.JettyJasperInitializer"
            .matches(WebappDefaults.replacedJspInitializers(EeVersion.EE11)));
    assertFalse(
        "org.eclipse.jetty.ee11.apache.jsp.JettyTldPreScanned"
            .matches(WebappDefaults.replacedJspInitializers(EeVersion.EE11)));
    assertFalse(
        "org.eclipse.jetty.ee8.apache.jsp.JettyJasperInitializer"
            .matches(WebappDefaults.replacedJspInitializers(EeVersion.EE11)));
    // EE11's JSTL jar declares GlassFish WaSP's initializer (its own JSP compiler's descriptors).
    assertTrue(
        "org.glassfish.wasp.runtime.TldScanner"
            .matches(WebappDefaults.replacedJspInitializers(EeVersion.EE11)));
    assertFalse(
        "org.glassfish.wasp.runtime.TldScanner"
            .matches(WebappDefaults.replacedJspInitializers(EeVersion.EE10)));
    assertEquals(
        Map.of(
            WebappDefaults.CONTAINER_INITIALIZER_EXCLUSION_PATTERN,
            WebappDefaults.jspInitializers(EeVersion.EE8)),
        WebappDefaults.contextAttributes(spec.withJsp(false), EeVersion.EE8));
    assertTrue(
        "org.eclipse.jetty.ee11.apache.jsp.JettyJasperInitializer"
            .matches(WebappDefaults.jspInitializers(EeVersion.EE11)));
    assertFalse(
        "org.eclipse.jetty.ee10.apache.jsp.JettyJasperInitializer"
            .matches(WebappDefaults.jspInitializers(EeVersion.EE11)));
  }

  @Test
  void withoutJsp_dropsOnlyTheJspServlet_andKeepsNull() {
    String[] names = {"default", WebappDefaults.JSP_SERVLET, "app"};

    assertArrayEquals(
        new String[] {"default", "app"}, WebappDefaults.withoutJsp(names, n -> n, String[]::new));
    assertNull(WebappDefaults.withoutJsp(null, (String n) -> n, String[]::new));
  }

  @Test
  void specRejectsMissingAppLocation() {
    Path missing = tmp.resolve("nope.war");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new WebappSpec(missing, "/", tmp.resolve("work")));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  void specRejectsRelativeContextPath() {
    assertThrows(IllegalArgumentException.class, () -> new WebappSpec(tmp, "app", tmp));
  }
}
