package dev.aerun.appengine.descriptor;

import static dev.aerun.appengine.descriptor.Descriptors.FILE;
import static dev.aerun.appengine.descriptor.Descriptors.assertBodyError;
import static dev.aerun.appengine.descriptor.Descriptors.assertFullError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppEngineWebXmlParserErrorsTest {

  @Test
  void malformedXmlReportsParserLocation() {
    assertFullError(
        "<appengine-web-app>\n  <runtime>java17</runtime\n</appengine-web-app>\n",
        3,
        1,
        "runtime",
        "malformed XML");
  }

  @Test
  void wrongRootElementIsNamed() {
    assertFullError("<web-app/>", 1, 1, "web-app", "wrong root element <web-app>");
  }

  @Test
  void unknownTopLevelElementIsNamedAndCalledUnknown() {
    assertBodyError(
        "<runtime>java17</runtime>\n  <bogus>1</bogus>\n",
        3,
        3,
        "bogus",
        "unknown element <bogus> in <appengine-web-app>");
  }

  @Test
  void unknownChildOfKnownBlockIsNamed() {
    assertBodyError(
        "<basic-scaling>\n  <max-instances>1</max-instances>\n  <min-instances>1</min-instances>\n</basic-scaling>\n",
        4,
        3,
        "min-instances",
        "unknown element <min-instances> in <basic-scaling>");
  }

  @Test
  void launcherEnvVariablesAreRefusedWithTheirPosition() {
    for (String name : new String[] {"AERUN_APP", "AERUN_RELAUNCHED_AT"}) {
      assertBodyError(
          "<env-variables>\n  <env-var name=\"OK\" value=\"1\"/>\n  <env-var name=\""
              + name
              + "\" value=\"x\"/>\n</env-variables>\n",
          4,
          3,
          "env-var",
          "environment variable " + name + " is reserved");
    }
  }

  @Test
  void reservedLookingNamesInBuildEnvVariablesAreFine() throws Exception {
    AppEngineWebXml d =
        Descriptors.parseBody(
            "<build-env-variables><build-env-var name=\"PORT\" value=\"1\"/>"
                + "</build-env-variables>\n");
    assertEquals("1", d.buildEnvVariables().get("PORT"));
  }

  @Test
  void serviceAndModuleTogetherConflict() {
    assertBodyError(
        "<service>a</service>\n<module>b</module>\n",
        3,
        1,
        "module",
        "both <service> and <module>");
  }

  @Test
  void secondScalingBlockIsRejected() {
    assertBodyError(
        "<manual-scaling><instances>1</instances></manual-scaling>\n"
            + "<basic-scaling><max-instances>1</max-instances></basic-scaling>\n",
        3,
        1,
        "basic-scaling",
        "only one scaling block");
  }

  @Test
  void repeatedSingleElementIsRejected() {
    assertBodyError(
        "<runtime>java17</runtime>\n<runtime>java21</runtime>\n",
        3,
        1,
        "runtime",
        "appears more than once");
  }

  @Test
  void badBooleanNamesTheValue() {
    assertBodyError(
        "<threadsafe>yes</threadsafe>\n", 2, 1, "threadsafe", "invalid boolean value \"yes\"");
  }

  @Test
  void badIntegerNamesTheValue() {
    assertBodyError(
        "<manual-scaling>\n  <instances>three</instances>\n</manual-scaling>\n",
        3,
        3,
        "instances",
        "invalid integer \"three\"");
  }

  @Test
  void zeroInstancesIsBelowMinimum() {
    assertBodyError(
        "<manual-scaling><instances>0</instances></manual-scaling>\n",
        2,
        17,
        "instances",
        "must be at least 1");
  }

  @Test
  void badDoubleNamesTheValue() {
    assertBodyError(
        "<automatic-scaling><target-cpu-utilization>high</target-cpu-utilization></automatic-scaling>\n",
        2,
        20,
        "target-cpu-utilization",
        "\"high\"");
  }

  @Test
  void badPendingLatencyIsRejected() {
    assertBodyError(
        "<automatic-scaling><min-pending-latency>fast</min-pending-latency></automatic-scaling>\n",
        2,
        20,
        "min-pending-latency",
        "invalid duration \"fast\"");
  }

  @Test
  void badIdleInstancesIsRejected() {
    assertBodyError(
        "<automatic-scaling><max-idle-instances>-1</max-idle-instances></automatic-scaling>\n",
        2,
        20,
        "max-idle-instances",
        "must be at least 0");
  }

  @Test
  void badExpirationAttributeIsRejected() {
    assertBodyError(
        "<static-files>\n  <include path=\"/a\" expiration=\"1y\"/>\n</static-files>\n",
        3,
        3,
        "include",
        "invalid expiration \"1y\"");
  }

  @Test
  void badDefaultExpirationIsRejected() {
    assertBodyError(
        "<default-expiration>soon</default-expiration>\n",
        2,
        1,
        "default-expiration",
        "invalid expiration \"soon\"");
  }

  @Test
  void sameHeaderInTwoIncludesIsAllowed() throws Exception {
    Descriptors.parseBody(
        """
        <static-files>
          <include path="/a"><http-header name="X" value="1"/></include>
          <include path="/b"><http-header name="X" value="2"/></include>
        </static-files>
        """);
  }

  @Test
  void propertyWithoutNameIsRejected() {
    assertBodyError(
        "<system-properties>\n  <property value=\"v\"/>\n</system-properties>\n",
        3,
        3,
        "property",
        "missing required attribute name");
  }

  @Test
  void propertyWithoutValueIsRejected() {
    assertBodyError(
        "<system-properties><property name=\"n\"/></system-properties>\n",
        2,
        20,
        "property",
        "missing required attribute value");
  }

  @Test
  void envVarWithoutNameIsRejected() {
    assertBodyError(
        "<env-variables><env-var value=\"v\"/></env-variables>\n",
        2,
        16,
        "env-var",
        "missing required attribute name");
  }

  @Test
  void includeWithoutPathIsRejected() {
    assertBodyError(
        "<resource-files><include/></resource-files>\n",
        2,
        17,
        "include",
        "missing required attribute path");
  }

  @Test
  void unknownAttributeIsRejected() {
    assertBodyError(
        "<static-files><exclude path=\"/a\" pth=\"/b\"/></static-files>\n",
        2,
        15,
        "exclude",
        "unknown attribute pth");
  }

  @Test
  void unknownUrlStreamHandlerIsRejected() {
    assertBodyError(
        "<url-stream-handler>ftp</url-stream-handler>\n",
        2,
        1,
        "url-stream-handler",
        "invalid value \"ftp\"; expected native or urlfetch");
  }

  @Test
  void unknownErrorCodeIsRejected() {
    assertBodyError(
        "<static-error-handlers><handler file=\"a\" error-code=\"oops\"/></static-error-handlers>\n",
        2,
        24,
        "handler",
        "invalid error-code \"oops\"");
  }

  @Test
  void staticErrorHandlerUnderWebInfOrMetaInfIsRejected() {
    for (String file :
        new String[] {
          "WEB-INF/appengine-web.xml",
          "/web-inf/web.xml",
          "public/../WEB-INF/secret.html",
          "META-INF\\MANIFEST.MF",
          "a/Meta-Inf/x.html"
        }) {
      assertBodyError(
          "<static-error-handlers>\n  <handler file=\"" + file + "\"/>\n</static-error-handlers>\n",
          3,
          3,
          "handler",
          "is under WEB-INF or META-INF");
    }
  }

  @Test
  void basicScalingWithoutMaxInstancesIsRejected() {
    assertBodyError(
        "<basic-scaling><idle-timeout>5m</idle-timeout></basic-scaling>\n",
        2,
        1,
        "basic-scaling",
        "missing required child <max-instances>");
  }

  @Test
  void asyncSessionPersistenceNeedsEnabled() {
    assertBodyError(
        "<async-session-persistence queue-name=\"q\"/>\n",
        2,
        1,
        "async-session-persistence",
        "missing required attribute enabled");
  }

  @Test
  void textInsideBlockIsRejected() {
    assertBodyError(
        "<system-properties>junk</system-properties>\n",
        2,
        20,
        "system-properties",
        "unexpected text \"junk\"");
  }

  @Test
  void elementInsideLeafIsRejected() {
    assertBodyError(
        "<runtime><x/></runtime>\n", 2, 10, "x", "unexpected element <x> inside <runtime>");
  }

  @Test
  void foreignNamespaceIsRejected() {
    assertBodyError(
        "<o:runtime xmlns:o=\"urn:other\">java17</o:runtime>\n",
        2,
        1,
        "runtime",
        "namespace urn:other");
  }

  @Test
  void doctypeIsRejectedSoNoExternalEntityIsRead() {
    DescriptorException e =
        Descriptors.errorFull(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n"
                + "<appengine-web-app><application>&e;</application></appengine-web-app>");
    assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    assertEquals(2, e.line());
  }

  @Test
  void undeclaredEntityIsMalformed() {
    assertFullError(
        "<appengine-web-app><application>&e;</application></appengine-web-app>",
        1,
        36,
        "application",
        "malformed XML");
  }

  @Test
  void missingFileIsADescriptorExceptionNamingTheFile(@TempDir Path dir) {
    Path missing = dir.resolve("nope.xml");
    DescriptorException e =
        assertThrows(DescriptorException.class, () -> AppEngineWebXmlParser.parse(missing));
    assertEquals(missing.toString(), e.file());
    assertTrue(e.getMessage().startsWith(missing + ":0:0: appengine-web-app: cannot read file"));
  }

  @Test
  void directoryIsADescriptorException(@TempDir Path dir) {
    assertThrows(DescriptorException.class, () -> AppEngineWebXmlParser.parse(dir));
  }

  @Test
  void nullInputsAreDescriptorExceptions() {
    assertThrows(DescriptorException.class, () -> AppEngineWebXmlParser.parse((Path) null));
    assertThrows(DescriptorException.class, () -> AppEngineWebXmlParser.parse(null, FILE));
  }

  @Test
  void messageHasNoLineBreaks() {
    DescriptorException e = new DescriptorException("f", 1, 2, "e", "a\nb");
    assertEquals("f:1:2: e: a b", e.getMessage());
    assertFalse(e.problem().contains("\n"));
  }

  @Test
  void invalidUtf8IsLocatedWithoutPrintingToStderr() {
    byte[] head = "<appengine-web-app>\n  <application>".getBytes(StandardCharsets.UTF_8);
    byte[] bad = Arrays.copyOf(head, head.length + 1);
    bad[head.length] = (byte) 0xFF;
    DescriptorException e =
        assertThrows(
            DescriptorException.class,
            () -> AppEngineWebXmlParser.parse(new ByteArrayInputStream(bad), FILE));
    assertEquals(2, e.line());
    assertEquals(16, e.column());
    assertTrue(e.getMessage().contains("invalid UTF-8 byte sequence"), e.getMessage());
  }

  @Test
  void unsupportedDeclaredEncodingIsRejected() {
    assertFullError(
        "<?xml version=\"1.0\" encoding=\"NOPE-42\"?><appengine-web-app/>",
        1,
        1,
        "appengine-web-app",
        "unsupported encoding \"NOPE-42\"");
  }
}
