package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.EeVersion;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import org.junit.jupiter.api.Test;

class StartFailuresTest {
  private static final StartFailures.EeChoice EE8_BY_FLAG =
      new StartFailures.EeChoice(EeVersion.EE8, "java21", Optional.of("appengine.use.EE8"));
  private static final StartFailures.EeChoice EE10_BY_DEFAULT =
      new StartFailures.EeChoice(EeVersion.EE10, "java21", Optional.empty());

  @Test
  void classForANewerJava_namesClassVersionsAndWhatToDo() {
    Throwable e =
        new RuntimeException(
            "deploy",
            new UnsupportedClassVersionError(
                "com/acme/Hello has been compiled by a more recent version of the Java Runtime"
                    + " (class file version 69.0), this version of the Java Runtime only"
                    + " recognizes class file versions up to 61.0"));

    String line = StartFailures.explain(e, "app.war", EE10_BY_DEFAULT).orElseThrow();

    int jvm = Runtime.version().feature();
    assertEquals(
        "app.war: class com.acme.Hello is compiled for Java 25 (class file version 69), but this"
            + " JVM is Java "
            + jvm
            + ": run the runtime on Java 25 or later, or compile the app with --release "
            + jvm,
        line);
  }

  @Test
  void classTheAnnotationScannerCannotRead_saysWhichJavaItNeeds() {
    String line =
        StartFailures.explain(
                new IllegalArgumentException("Unsupported class file major version 99"),
                "app.war",
                EE10_BY_DEFAULT)
            .orElseThrow();

    assertTrue(line.startsWith("app.war: a class of the app is compiled for Java 55"), line);
  }

  @Test
  void jakartaOnEe8_namesTheFlagThatChoseItAndTheOneThatChangesIt() {
    String line =
        StartFailures.explain(
                new NoClassDefFoundError("jakarta/servlet/http/HttpServlet"), "a", EE8_BY_FLAG)
            .orElseThrow();

    assertTrue(line.contains("jakarta.servlet.http.HttpServlet is missing"), line);
    assertTrue(line.contains("chosen by appengine.use.EE8=true"), line);
    assertTrue(line.contains("set appengine.use.EE10=true"), line);
  }

  @Test
  void javaxOnEe10_namesTheRuntimesDefault() {
    String line =
        StartFailures.explain(
                new RuntimeException(new ClassNotFoundException("javax.servlet.Filter")),
                "a",
                EE10_BY_DEFAULT)
            .orElseThrow();

    assertTrue(line.contains("chosen by the default of runtime java21"), line);
    assertTrue(line.contains("set appengine.use.EE8=true"), line);
  }

  @Test
  void anyOtherMissingClassOrBrokenProvider_pointsAtWebInfLib() {
    assertTrue(
        StartFailures.explain(
                new NoClassDefFoundError("org/eclipse/jetty/util/component/AbstractLifeCycle"),
                "a",
                EE10_BY_DEFAULT)
            .orElseThrow()
            .contains("org.eclipse.jetty.util.component.AbstractLifeCycle is missing"));
    assertTrue(
        StartFailures.explain(new ServiceConfigurationError("bad"), "a", EE10_BY_DEFAULT)
            .orElseThrow()
            .contains("WEB-INF/lib"));
  }

  @Test
  void somethingElse_isLeftToItsOwnMessage() {
    assertEquals(
        Optional.empty(),
        StartFailures.explain(new IllegalStateException("boom"), "a", EE10_BY_DEFAULT));
  }

  @Test
  void trueFlag_ignoresLetterCaseAndFalseValues() {
    assertEquals(
        Optional.of("appengine.use.EE10"),
        StartFailures.trueFlag(
            Map.of("APPENGINE.use.ee8", "false", "appengine.use.ee10", " TRUE "),
            "appengine.use.EE8",
            "appengine.use.EE10"));
  }
}
