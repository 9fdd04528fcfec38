package dev.aerun.e2e;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Set;

/**
 * Runs, in a JVM of its own (with appengine-tools-sdk on its class path, never the tests'), the
 * part of Google's App Engine staging that reads an app and writes its {@code app.yaml}: {@code
 * Application.readApplication} (Google's readers of {@code appengine-web.xml}, {@code web.xml},
 * {@code cron.xml}, {@code queue.xml}, with their checks) and the {@code AppYamlTranslator} its
 * staging writes {@code app.yaml} with; prints the {@code app.yaml}. Exits 1 with the reason when
 * Google's code refuses the app.
 *
 * <p>Called by reflection so that this class compiles without Google's tools on the tests' class
 * path. The schema files Google's reader validates against ({@code docs/*.xsd} of the SDK) are not
 * published on Maven Central, so the caller points {@code appengine.sdk.root} at a folder whose
 * schemas accept any content: every other check of Google's readers still applies.
 *
 * <p>{@code usage: GoogleStagingCheck APP_DIR}
 */
public final class GoogleStagingCheck {
  private GoogleStagingCheck() {}

  public static void main(String[] args) throws Exception {
    try {
      Class<?> application = Class.forName("com.google.appengine.tools.admin.Application");
      Object app = application.getMethod("readApplication", String.class).invoke(null, args[0]);
      Object appEngineWebXml = application.getMethod("getAppEngineWebXml").invoke(app);
      Object webXml = application.getMethod("getWebXml").invoke(app);
      Object backendsXml = application.getMethod("getBackendsXml").invoke(app);
      // What Google's staging takes as the runtime of a java17+ app: its descriptor's.
      String runtime =
          (String) appEngineWebXml.getClass().getMethod("getRuntime").invoke(appEngineWebXml);
      Class<?> translator = Class.forName("com.google.appengine.tools.admin.AppYamlTranslator");
      Constructor<?> make = null;
      for (Constructor<?> c : translator.getConstructors()) {
        if (c.getParameterCount() == 6) {
          make = c;
        }
      }
      Object yaml = make.newInstance(appEngineWebXml, webXml, backendsXml, Set.of(), null, runtime);
      Method getYaml = translator.getMethod("getYaml");
      System.out.print(getYaml.invoke(yaml));
      System.out.flush();
      System.exit(0);
    } catch (java.lang.reflect.InvocationTargetException e) {
      System.err.println("refused: " + e.getCause());
      e.getCause().printStackTrace();
      System.exit(1);
    }
  }

  /** A schema that accepts any content under {@code root} (in {@code namespace}, or none). */
  static String anySchema(String root, String namespace) {
    return "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\""
        + (namespace == null
            ? ""
            : " targetNamespace=\"" + namespace + "\" elementFormDefault=\"qualified\"")
        + "><xs:element name=\""
        + root
        + "\"><xs:complexType><xs:sequence><xs:any processContents=\"skip\" minOccurs=\"0\""
        + " maxOccurs=\"unbounded\"/></xs:sequence><xs:anyAttribute processContents=\"skip\"/>"
        + "</xs:complexType></xs:element></xs:schema>";
  }

  /** The path of this class's folder of compiled tests. */
  static String testClasses() throws Exception {
    return new File(
            GoogleStagingCheck.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getPath();
  }
}
