package dev.aerun.appengine.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RuntimeSelectionTest {

  /** "k=v;k2=v2" to an ordered map; null or empty gives an empty map. */
  private static Map<String, String> props(String spec) {
    Map<String, String> m = new LinkedHashMap<>();
    if (spec != null && !spec.isEmpty()) {
      for (String kv : spec.split(";")) {
        int eq = kv.indexOf('=');
        m.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    return m;
  }

  private static Set<EeVersion> supported(String spec) {
    if (spec == null) {
      return SelectionInput.DEFAULT_SUPPORTED_EE;
    }
    Set<EeVersion> s = EnumSet.noneOf(EeVersion.class);
    for (String e : spec.split(";")) {
      s.add(EeVersion.valueOf(e));
    }
    return s;
  }

  @ParameterizedTest(
      name =
          "[{index}] runtime={0} GAE_RUNTIME={1} props={2} -D={3} launcher={4} jvm={5}"
              + " supported={6} -> {7} {8} {9} error={10} warns={11}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // runtime | GAE_RUNTIME | descriptor props | -D overrides | launcher | jvm | supported
        //   | mode | ee | runtimeId | error fragment | warns
        // --- java17
        "java17|-|-|-|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|-|appengine.use.EE10=true|-|-|17|-|LEGACY_RPC|EE10|java17|-|false",
        "java17|-|-|appengine.use.EE10=true|-|17|-|LEGACY_RPC|EE10|java17|-|false",
        "java17|-|appengine.use.ee10=TRUE|-|-|17|-|LEGACY_RPC|EE10|java17|-|false",
        "java17|-|appengine.use.EE8=true|-|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|-|appengine.use.EE10=false|-|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|-|appengine.use.EE10=true|appengine.use.EE10=false|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|-|appengine.use.EE8=true|appengine.use.EE8=false;appengine.use.EE10=true|-|17|-|LEGACY_RPC|EE10|java17|-|false",
        "java17|-|appengine.use.EE8=true|appengine.use.EE10=true|-|17|-|-|-|-|conflicting EE flags|false",
        "java17|-|appengine.use.EE8=true;appengine.use.EE10=true|-|-|17|-|-|-|-|conflicting EE flags|false",
        "java17|-|appengine.use.EE8=true;appengine.use.EE10=true;appengine.use.EE11=true|-|-|17|-|-|-|-|conflicting EE flags|false",
        "java17|-|appengine.use.EE10=true;appengine.use.EE11=true|-|-|17|-|-|-|-|conflicting EE flags|false",
        "java17|-|appengine.use.EE11=true|-|-|17|EE8;EE10|-|-|-|EE11 was requested for runtime java17|false",
        "java17|-|appengine.use.EE11=true|-|-|17|-|LEGACY_RPC|EE11|java17|-|false",
        "java17|-|-|appengine.use.ee11=True|-|17|-|LEGACY_RPC|EE11|java17|-|false",
        "java17|-|appengine.use.jetty121=true|-|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|-|appengine.use.jetty121=true;appengine.use.EE10=true|-|-|17|-|LEGACY_RPC|EE11|java17|-|true",
        "java17|-|appengine.use.EE10=true|appengine.use.jetty121=true|-|17|-|LEGACY_RPC|EE11|java17|-|true",
        "java17|-|appengine.use.jetty121=true;appengine.use.EE10=true;appengine.use.EE11=true|-|-|17|-|LEGACY_RPC|EE11|java17|-|true",
        "java17|-|appengine.use.jetty121=true;appengine.use.EE10=true;appengine.use.EE8=true|-|-|17|-|-|-|-|conflicting EE flags|false",
        // --- java21
        "java21|-|-|-|-|21|-|LEGACY_RPC|EE10|java21|-|false",
        "java21|-|appengine.use.EE8=true|-|-|21|-|LEGACY_RPC|EE8|java21|-|false",
        "java21|-|-|appengine.use.EE8=true|-|21|-|LEGACY_RPC|EE8|java21|-|false",
        "java21|-|appengine.use.EE10=true|-|-|21|-|LEGACY_RPC|EE10|java21|-|false",
        "java21|-|appengine.use.EE11=true|-|-|21|-|LEGACY_RPC|EE11|java21|-|false",
        "java21|-|appengine.use.EE11=true|-|-|21|EE8;EE10|-|-|-|EE11 was requested|false",
        "java21|-|-|appengine.use.EE11=true|-|21|-|LEGACY_RPC|EE11|java21|-|false",
        "java21|-|appengine.use.jetty121=true|-|-|21|-|LEGACY_RPC|EE11|java21|-|false",
        "java21|-|-|appengine.use.Jetty121=TRUE|-|21|-|LEGACY_RPC|EE11|java21|-|false",
        "java21|-|appengine.use.jetty121=true|appengine.use.jetty121=false|-|21|-|LEGACY_RPC|EE10|java21|-|false",
        "java21|-|appengine.use.jetty121=true;appengine.use.EE8=true|-|-|21|-|LEGACY_RPC|EE8|java21|-|false",
        "java21|-|appengine.use.jetty121=true;appengine.use.EE10=true|-|-|21|-|LEGACY_RPC|EE11|java21|-|true",
        "java21|-|appengine.use.jetty121=true;appengine.use.EE10=true|-|-|21|EE8;EE10|-|-|-|EE11 was requested|false",
        "java21|-|appengine.use.jetty121=true|-|-|21|EE8;EE10|-|-|-|EE11 was requested|false",
        "java21|-|appengine.use.EE8=true;appengine.use.EE11=true|-|-|21|-|-|-|-|conflicting EE flags|false",
        "java21|-|-|-|-|17|-|LEGACY_RPC|EE10|java21|-|true",
        // --- java25
        "java25|-|-|-|-|25|-|LEGACY_RPC|EE11|java25|-|false",
        "java25|-|-|-|-|25|EE8;EE10|LEGACY_RPC|EE10|java25|-|false",
        "java25|-|appengine.use.EE8=true|-|-|25|-|LEGACY_RPC|EE8|java25|-|false",
        "java25|-|appengine.use.EE10=true|-|-|25|-|-|-|-|appengine.use.EE10=true is not supported for runtime java25|false",
        "java25|-|appengine.use.EE10=true;appengine.use.jetty121=true|-|-|25|-|-|-|-|not supported for runtime java25|false",
        "java25|-|-|appengine.use.EE10=true|-|25|-|-|-|-|-Dappengine.use.EE10: appengine.use.EE10=true is not supported|false",
        "java21|java25|appengine.use.EE10=true|-|-|25|-|-|-|-|not supported for runtime java25|false",
        "java25|-|appengine.use.EE11=true|-|-|25|-|LEGACY_RPC|EE11|java25|-|false",
        "java25|-|appengine.use.jetty121=true|-|-|25|-|LEGACY_RPC|EE11|java25|-|false",
        "java25|-|appengine.use.EE10=true;appengine.use.EE11=true|-|-|25|-|-|-|-|conflicting EE flags|false",
        "java25|-|-|-|-|17|-|LEGACY_RPC|EE11|java25|-|true",
        // --- legacy runtime ids
        "java8|-|-|-|-|17|-|LEGACY_RPC|EE8|java8|-|true",
        "java11|-|-|-|-|17|-|LEGACY_RPC|EE8|java11|-|true",
        "java8|-|appengine.use.EE10=true|-|-|17|-|LEGACY_RPC|EE10|java8|-|true",
        "java11|-|-|appengine.use.EE10=true|-|21|-|LEGACY_RPC|EE10|java11|-|true",
        "java11|-|appengine.use.EE11=true|-|-|17|-|LEGACY_RPC|EE11|java11|-|true",
        // --- missing runtime: the JVM decides
        "-|-|-|-|-|17|-|LEGACY_RPC|EE8|java17|-|true",
        "-|-|-|-|-|11|-|LEGACY_RPC|EE8|java17|-|true",
        "-|-|-|-|-|19|-|LEGACY_RPC|EE10|java21|-|true",
        "-|-|-|-|-|21|-|LEGACY_RPC|EE10|java21|-|true",
        "-|-|appengine.use.jetty121=true|-|-|21|-|LEGACY_RPC|EE11|java21|-|true",
        "-|-|-|-|-|22|-|LEGACY_RPC|EE11|java25|-|true",
        "-|-|-|-|-|25|-|LEGACY_RPC|EE11|java25|-|true",
        "-|-|-|-|-|25|EE8;EE10|LEGACY_RPC|EE10|java25|-|true",
        "-|-|appengine.use.EE8=true|-|-|25|-|LEGACY_RPC|EE8|java25|-|true",
        "-|-|appengine.use.EE10=true|-|-|25|-|-|-|-|not supported for runtime java25|false",
        "-|-|appengine.use.EE10=true|-|-|17|-|LEGACY_RPC|EE10|java17|-|true",
        "-|-|appengine.use.EE11=true|-|-|17|-|LEGACY_RPC|EE11|java17|-|true",
        "' '|-|-|-|-|17|-|LEGACY_RPC|EE8|java17|-|true",
        // --- unknown runtimes
        "java99|-|-|-|-|17|-|-|-|-|accepted values: java8, java11, java17, java21, java25|false",
        "Java17|-|-|-|-|17|-|-|-|-|unsupported runtime \"Java17\"|false",
        "python3|-|-|-|HTTP_CONNECTOR|17|-|-|-|-|unsupported runtime \"python3\"|false",
        // --- GAE_RUNTIME overrides <runtime>
        "java17|java21|-|-|-|21|-|LEGACY_RPC|EE10|java21|-|true",
        "-|java17|-|-|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|java17|-|-|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java21|java17|appengine.use.EE10=true|-|-|17|-|LEGACY_RPC|EE10|java17|-|true",
        "java17|java7|-|-|-|17|-|-|-|-|from GAE_RUNTIME; accepted values|false",
        "java17|' '|-|-|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        // --- HttpConnector: descriptor vs -D vs launcher
        "java17|-|appengine.use.HttpConnector=true|-|-|17|-|HTTP_CONNECTOR|EE8|java17|-|false",
        "java17|-|appengine.use.httpconnector=True|-|-|17|-|HTTP_CONNECTOR|EE8|java17|-|false",
        "java17|-|appengine.use.HttpConnector=false|-|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|-|appengine.use.HttpConnector=true|appengine.use.HttpConnector=false|-|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|-|-|appengine.use.HTTPCONNECTOR=true|-|17|-|HTTP_CONNECTOR|EE8|java17|-|false",
        "java17|-|appengine.use.HttpConnector=true|-|LEGACY_RPC|17|-|LEGACY_RPC|EE8|java17|-|false",
        "java17|-|-|-|HTTP_CONNECTOR|17|-|HTTP_CONNECTOR|EE8|java17|-|false",
        "java17|-|appengine.use.HttpConnector=false|appengine.use.HttpConnector=false|HTTP_CONNECTOR|17|-|HTTP_CONNECTOR|EE8|java17|-|false",
        "java17|-|appengine.use.HttpConnector=yes|-|-|17|-|LEGACY_RPC|EE8|java17|-|true",
        "java21|-|appengine.use.HttpConnector=true;appengine.use.EE8=true|-|-|21|-|HTTP_CONNECTOR|EE8|java21|-|false",
        "java25|java21|appengine.use.HttpConnector=true|appengine.use.EE8=true|-|21|-|HTTP_CONNECTOR|EE8|java21|-|true",
        "java17|-|appengine.use.HttpConnector=true;appengine.use.EE8=true;appengine.use.EE10=true|-|HTTP_CONNECTOR|17|-|-|-|-|conflicting EE flags|false",
      })
  void resolvesModeEeAndRuntimeAcrossTheMatrix(
      String runtime,
      String gaeRuntime,
      String descriptorProps,
      String overrides,
      ServingMode launcher,
      int jvm,
      String supportedEe,
      ServingMode mode,
      EeVersion ee,
      String runtimeId,
      String error,
      boolean warns)
      throws Exception {
    SelectionInput in =
        new SelectionInput(
                Optional.ofNullable(runtime),
                props(descriptorProps),
                props(overrides),
                Optional.empty(),
                Optional.ofNullable(launcher),
                jvm,
                supported(supportedEe))
            .withGaeRuntime(gaeRuntime);
    if (error != null) {
      SelectionException e =
          assertThrows(SelectionException.class, () -> RuntimeSelection.resolve(in));
      assertTrue(e.getMessage().contains(error), e.getMessage());
      assertTrue(!e.getMessage().contains("\n"));
      return;
    }
    RuntimeSelection s = RuntimeSelection.resolve(in);
    assertEquals(mode, s.mode(), "mode");
    assertEquals(ee, s.ee(), "ee");
    assertEquals(runtimeId, s.runtimeId(), "runtimeId");
    assertEquals(warns, !s.warnings().isEmpty(), () -> "warnings: " + s.warnings());
  }

  @Test
  void effectivePropertyPrefersOverrideAndIgnoresCase() {
    Map<String, String> descriptor = Map.of("appengine.use.HttpConnector", "true", "a", "1");
    Map<String, String> overrides = Map.of("APPENGINE.USE.HTTPCONNECTOR", "false");
    assertEquals(
        Optional.of("false"),
        RuntimeSelection.effectiveProperty("appengine.use.httpconnector", descriptor, overrides));
    assertEquals(Optional.of("1"), RuntimeSelection.effectiveProperty("A", descriptor, overrides));
    assertEquals(
        Optional.empty(), RuntimeSelection.effectiveProperty("missing", descriptor, overrides));
  }

  @Test
  void selectionInputFromDescriptorUsesItsRuntimeAndProperties() throws Exception {
    AppEngineWebXml d =
        Descriptors.parseBody(
            """
            <runtime>java21</runtime>
            <system-properties>
              <property name="appengine.use.EE8" value="true"/>
              <property name="appengine.use.HttpConnector" value="true"/>
            </system-properties>
            """);
    RuntimeSelection s = RuntimeSelection.resolve(SelectionInput.of(d).withJvmFeatureVersion(21));
    assertEquals(
        new RuntimeSelection(
            ServingMode.HTTP_CONNECTOR, EeVersion.EE8, "java21", java.util.List.of()),
        s);
  }

  @Test
  void ee10OnJava25IsAnErrorNamingTheDescriptorsProperty() throws Exception {
    AppEngineWebXml d =
        AppEngineWebXmlParser.parse(
            new java.io.ByteArrayInputStream(
                """
                <appengine-web-app xmlns="http://appengine.google.com/ns/1.0">
                  <runtime>java25</runtime>
                  <system-properties>
                    <property name="appengine.use.EE10" value="true"/>
                  </system-properties>
                </appengine-web-app>
                """
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)),
            "WEB-INF/appengine-web.xml");
    SelectionException e =
        assertThrows(
            SelectionException.class,
            () -> RuntimeSelection.resolve(SelectionInput.of(d).withJvmFeatureVersion(25)));
    assertEquals(
        "WEB-INF/appengine-web.xml:4:5: property: appengine.use.EE10=true is not supported for"
            + " runtime java25 (Jetty 12.1 has no EE10): use appengine.use.EE11=true (the java25"
            + " default) or runtime java21",
        e.getMessage());
  }

  @Test
  void ee10WithJetty121OnJava17And21BecomesEe11WithThePlatformsWarning() throws Exception {
    for (String runtime : java.util.List.of("java17", "java21")) {
      RuntimeSelection s =
          RuntimeSelection.resolve(
              SelectionInput.of(AppEngineWebXml.empty())
                  .withGaeRuntime(runtime)
                  .withOverrides(
                      Map.of("appengine.use.EE10", "true", "appengine.use.jetty121", "true"))
                  .withJvmFeatureVersion(21));
      assertEquals(EeVersion.EE11, s.ee(), runtime);
      assertEquals(
          java.util.List.of(
              "appengine.use.EE10 is not supported with Jetty 12.1 for runtime "
                  + runtime
                  + ", upgrading to appengine.use.EE11."),
          s.warnings());
    }
  }

  @Test
  void launcherModeAndOverridesAreAppliedByWithers() throws Exception {
    RuntimeSelection s =
        RuntimeSelection.resolve(
            SelectionInput.of(AppEngineWebXml.empty())
                .withGaeRuntime("java17")
                .withOverrides(Map.of("appengine.use.EE10", "true"))
                .withLauncherMode(ServingMode.HTTP_CONNECTOR)
                .withSupportedEe(Set.of(EeVersion.EE8, EeVersion.EE10))
                .withJvmFeatureVersion(17));
    assertEquals(ServingMode.HTTP_CONNECTOR, s.mode());
    assertEquals(EeVersion.EE10, s.ee());
  }

  @Test
  void warningsAreUnmodifiable() throws Exception {
    RuntimeSelection s =
        RuntimeSelection.resolve(
            SelectionInput.of(AppEngineWebXml.empty()).withJvmFeatureVersion(17));
    assertThrows(UnsupportedOperationException.class, () -> s.warnings().add("x"));
  }
}
