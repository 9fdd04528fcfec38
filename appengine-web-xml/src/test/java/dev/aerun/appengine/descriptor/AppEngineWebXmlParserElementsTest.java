package dev.aerun.appengine.descriptor;

import static dev.aerun.appengine.descriptor.Descriptors.parseBody;
import static dev.aerun.appengine.descriptor.Descriptors.parseFull;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.AppEngineWebXml.StaticInclude;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppEngineWebXmlParserElementsTest {

  @Test
  void emptyRootGivesDocumentedDefaults() throws Exception {
    AppEngineWebXml d = parseBody("");
    assertEquals(Optional.empty(), d.runtime());
    assertFalse(d.sessionsEnabled());
    assertTrue(d.sslEnabled());
    assertTrue(d.warmupRequestsEnabled());
    assertTrue(d.precompilationEnabled());
    assertFalse(d.staticFiles().declared());
    assertTrue(d.staticFiles().includesEverything());
    assertEquals(Optional.empty(), d.scaling());
    assertTrue(d.systemProperties().isEmpty());
    assertEquals(Optional.empty(), d.staging().compileEncoding());
  }

  @Test
  void emptyModelEqualsEmptyFileDefaults() {
    assertTrue(AppEngineWebXml.empty().inboundServices().isEmpty());
    assertTrue(AppEngineWebXml.empty().sslEnabled());
  }

  @Test
  void rootWithoutNamespaceIsAccepted() throws Exception {
    assertEquals(
        Optional.of("java21"),
        parseFull("<appengine-web-app><runtime>java21</runtime></appengine-web-app>").runtime());
  }

  @Test
  void xsiAttributesOnRootAreIgnored() throws Exception {
    String xml =
        """
        <appengine-web-app xmlns="http://appengine.google.com/ns/1.0"
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
            xsi:schemaLocation="http://appengine.google.com/ns/1.0 x.xsd">
          <application>p</application>
        </appengine-web-app>
        """;
    assertEquals(Optional.of("p"), parseFull(xml).application());
  }

  @Test
  void applicationIsParsed() throws Exception {
    assertEquals(
        Optional.of("my-project"),
        parseBody("<application> my-project </application>\n").application());
  }

  @Test
  void versionIsParsed() throws Exception {
    assertEquals(Optional.of("v1"), parseBody("<version>v1</version>\n").version());
  }

  @Test
  void serviceIsParsed() throws Exception {
    assertEquals(Optional.of("api"), parseBody("<service>api</service>\n").service());
  }

  @Test
  void moduleIsTheOldNameOfService() throws Exception {
    assertEquals(Optional.of("api"), parseBody("<module>api</module>\n").service());
  }

  @Test
  void runtimeIsParsed() throws Exception {
    assertEquals(Optional.of("java17"), parseBody("<runtime>java17</runtime>\n").runtime());
  }

  @Test
  void instanceClassIsParsed() throws Exception {
    assertEquals(
        Optional.of("F2"), parseBody("<instance-class>F2</instance-class>\n").instanceClass());
  }

  @Test
  void serviceAccountIsParsed() throws Exception {
    assertEquals(
        Optional.of("sa@p.iam.gserviceaccount.com"),
        parseBody("<service-account>sa@p.iam.gserviceaccount.com</service-account>\n")
            .serviceAccount());
  }

  @Test
  void systemPropertiesKeepFileOrder() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <system-properties>
              <property name="z" value="1"/>
              <property name="a" value="2"/>
              <property name="appengine.use.EE10" value="true"/>
              <property name="m" value=""/>
            </system-properties>
            """);
    assertEquals(
        List.of("z", "a", "appengine.use.EE10", "m"), List.copyOf(d.systemProperties().keySet()));
    assertEquals("", d.systemProperties().get("m"));
  }

  @Test
  void appEnginePropertiesAreTheAppenginePrefixedOnes() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <system-properties>
              <property name="x" value="1"/>
              <property name="appengine.use.HttpConnector" value="true"/>
              <property name="AppEngine.foo" value="bar"/>
            </system-properties>
            """);
    assertEquals(
        Map.of("appengine.use.HttpConnector", "true", "AppEngine.foo", "bar"),
        d.appEngineProperties());
  }

  @Test
  void modelCollectionsAreUnmodifiable() throws Exception {
    AppEngineWebXml d =
        parseBody("<system-properties><property name=\"a\" value=\"b\"/></system-properties>\n");
    assertThrows(UnsupportedOperationException.class, () -> d.systemProperties().put("x", "y"));
    assertThrows(UnsupportedOperationException.class, () -> d.inboundServices().add("x"));
  }

  @Test
  void envVariablesAreParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <env-variables>
              <env-var name="B" value="2"/>
              <env-var name="A" value="1"/>
            </env-variables>
            """);
    assertEquals(List.of("B", "A"), List.copyOf(d.envVariables().keySet()));
    assertEquals("1", d.envVariables().get("A"));
  }

  @Test
  void buildEnvVariablesAreParsed() throws Exception {
    assertEquals(
        Map.of("K", "v"),
        parseBody(
                "<build-env-variables><build-env-var name=\"K\" value=\"v\"/></build-env-variables>\n")
            .buildEnvVariables());
  }

  @Test
  void staticFilesIncludeHasExpirationAndHeaders() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <static-files>
              <include path="/**.png" expiration="1d 4h">
                <http-header name="Cache-Control" value="public"/>
                <http-header name="X-A" value="b"/>
              </include>
              <include path="/**.html"/>
              <exclude path="/private/**"/>
            </static-files>
            """);
    List<StaticInclude> inc = d.staticFiles().includes();
    assertEquals(2, inc.size());
    assertEquals("/**.png", inc.get(0).path());
    assertEquals(Optional.of(100800L), inc.get(0).expirationSeconds());
    assertEquals(List.of("Cache-Control", "X-A"), List.copyOf(inc.get(0).httpHeaders().keySet()));
    assertEquals(Optional.empty(), inc.get(1).expirationSeconds());
    assertEquals(List.of("/private/**"), d.staticFiles().excludes());
    assertFalse(d.staticFiles().includesEverything());
  }

  @Test
  void emptyStaticFilesMeansEverythingIsStatic() throws Exception {
    AppEngineWebXml d = parseBody("<static-files/>\n");
    assertTrue(d.staticFiles().declared());
    assertTrue(d.staticFiles().declaredEmpty());
    assertTrue(d.staticFiles().includesEverything());
  }

  @Test
  void resourceFilesAreParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <resource-files>
              <include path="/**.xml"/>
              <exclude path="/feeds/**.xml"/>
            </resource-files>
            """);
    assertEquals(List.of("/**.xml"), d.resourceFiles().includes());
    assertEquals(List.of("/feeds/**.xml"), d.resourceFiles().excludes());
  }

  @Test
  void defaultExpirationIsParsedToSeconds() throws Exception {
    assertEquals(
        Optional.of(600L),
        parseBody("<default-expiration>10m</default-expiration>\n").defaultExpirationSeconds());
  }

  @Test
  void publicRootIsParsed() throws Exception {
    assertEquals(
        Optional.of("/static"), parseBody("<public-root>/static</public-root>\n").publicRoot());
  }

  @Test
  void sessionsEnabledIsParsed() throws Exception {
    assertTrue(parseBody("<sessions-enabled>true</sessions-enabled>\n").sessionsEnabled());
  }

  @Test
  void asyncSessionPersistenceHasEnabledAndQueueName() throws Exception {
    AppEngineWebXml d =
        parseBody("<async-session-persistence enabled=\"true\" queue-name=\"q\"/>\n");
    assertTrue(d.asyncSessionPersistence().enabled());
    assertEquals(Optional.of("q"), d.asyncSessionPersistence().queueName());
  }

  @Test
  void threadsafeIsParsed() throws Exception {
    assertEquals(Optional.of(false), parseBody("<threadsafe>false</threadsafe>\n").threadsafe());
  }

  @Test
  void appEngineApisIsParsed() throws Exception {
    assertTrue(parseBody("<app-engine-apis>TRUE</app-engine-apis>\n").appEngineApis());
  }

  @Test
  void sslEnabledFalseIsParsed() throws Exception {
    assertFalse(parseBody("<ssl-enabled>false</ssl-enabled>\n").sslEnabled());
  }

  @Test
  void urlStreamHandlerUrlfetchIsParsed() throws Exception {
    assertEquals(
        Optional.of(UrlStreamHandler.URLFETCH),
        parseBody("<url-stream-handler>urlfetch</url-stream-handler>\n").urlStreamHandler());
  }

  @Test
  void urlStreamHandlerNativeIsParsed() throws Exception {
    assertEquals(
        Optional.of(UrlStreamHandler.NATIVE),
        parseBody("<url-stream-handler>native</url-stream-handler>\n").urlStreamHandler());
  }

  @Test
  void inboundServicesAreListedInOrder() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <inbound-services>
              <service>mail</service>
              <service>warmup</service>
            </inbound-services>
            """);
    assertEquals(List.of("mail", "warmup"), d.inboundServices());
  }

  @Test
  void warmupRequestsCanBeDisabled() throws Exception {
    assertFalse(
        parseBody("<warmup-requests-enabled>false</warmup-requests-enabled>\n")
            .warmupRequestsEnabled());
  }

  @Test
  void precompilationEnabledIsParsed() throws Exception {
    assertFalse(
        parseBody("<precompilation-enabled>false</precompilation-enabled>\n")
            .precompilationEnabled());
  }

  @Test
  void automaticScalingIsParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <automatic-scaling>
              <min-idle-instances>1</min-idle-instances>
              <max-idle-instances>automatic</max-idle-instances>
              <min-pending-latency>30ms</min-pending-latency>
              <max-pending-latency>automatic</max-pending-latency>
              <max-concurrent-requests>50</max-concurrent-requests>
              <min-instances>0</min-instances>
              <max-instances>10</max-instances>
              <target-cpu-utilization>0.65</target-cpu-utilization>
              <target-throughput-utilization>0.7</target-throughput-utilization>
              <min-num-instances>2</min-num-instances>
              <cpu-utilization><target-utilization>0.5</target-utilization></cpu-utilization>
              <target-request-count-per-sec>100</target-request-count-per-sec>
            </automatic-scaling>
            """);
    AutomaticScaling a = (AutomaticScaling) d.scaling().orElseThrow();
    assertEquals(Optional.of("1"), a.minIdleInstances());
    assertEquals(Optional.of("automatic"), a.maxIdleInstances());
    assertEquals(Optional.of("30ms"), a.minPendingLatency());
    assertEquals(Optional.of(50), a.maxConcurrentRequests());
    assertEquals(Optional.of(0), a.minInstances());
    assertEquals(Optional.of(10), a.maxInstances());
    assertEquals(Optional.of(0.65), a.targetCpuUtilization());
    assertEquals(Optional.of(0.7), a.targetThroughputUtilization());
    assertEquals(Optional.of(2), a.minNumInstances());
    assertEquals("0.5", a.cpuUtilization().get("target-utilization"));
    assertEquals(Map.of("target-request-count-per-sec", 100L), a.targets());
  }

  @Test
  void basicScalingIsParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <basic-scaling>
              <max-instances>5</max-instances>
              <idle-timeout>10m</idle-timeout>
            </basic-scaling>
            """);
    assertEquals(new BasicScaling(5, Optional.of(600L)), d.scaling().orElseThrow());
  }

  @Test
  void manualScalingIsParsed() throws Exception {
    assertEquals(
        new ManualScaling(3),
        parseBody("<manual-scaling><instances>3</instances></manual-scaling>\n")
            .scaling()
            .orElseThrow());
  }

  @Test
  void vpcAccessConnectorIsParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <vpc-access-connector>
              <name>projects/p/locations/r/connectors/c</name>
              <egress-setting>all-traffic</egress-setting>
            </vpc-access-connector>
            """);
    assertEquals(
        "projects/p/locations/r/connectors/c", d.vpcAccessConnector().orElseThrow().name());
    assertEquals(Optional.of("all-traffic"), d.vpcAccessConnector().orElseThrow().egressSetting());
  }

  @Test
  void classLoaderConfigIsParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <class-loader-config>
              <priority-specifier filename="a.jar" priority="1"/>
              <priority-specifier filename="b.jar"/>
            </class-loader-config>
            """);
    assertEquals(
        List.of(
            new PrioritySpecifier("a.jar", Optional.of(1.0)),
            new PrioritySpecifier("b.jar", Optional.empty())),
        d.classLoaderConfig());
  }

  @Test
  void stagingIsParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <staging>
              <enable-jar-splitting>true</enable-jar-splitting>
              <jar-splitting-excludes>.*\\.txt</jar-splitting-excludes>
              <disable-jar-jsps>false</disable-jar-jsps>
              <enable-jar-classes>true</enable-jar-classes>
              <delete-jsps>true</delete-jsps>
              <compile-encoding>UTF-8</compile-encoding>
            </staging>
            """);
    assertEquals(Optional.of(true), d.staging().enableJarSplitting());
    assertEquals(Optional.of(".*\\.txt"), d.staging().jarSplittingExcludes());
    assertEquals(Optional.of(false), d.staging().disableJarJsps());
    assertEquals(Optional.of(true), d.staging().enableJarClasses());
    assertEquals(Optional.of(true), d.staging().deleteJsps());
    assertEquals(Optional.of("UTF-8"), d.staging().compileEncoding());
  }

  @Test
  void adminConsolePagesAreParsed() throws Exception {
    assertEquals(
        List.of(new AdminConsolePage("Stats", "/admin/stats")),
        parseBody("<admin-console><page name=\"Stats\" url=\"/admin/stats\"/></admin-console>\n")
            .adminConsolePages());
  }

  @Test
  void staticErrorHandlersAreParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <static-error-handlers>
              <handler file="default.html"/>
              <handler file="quota.html" error-code="over_quota"/>
            </static-error-handlers>
            """);
    assertEquals(
        List.of(
            new StaticErrorHandler("default.html", Optional.empty()),
            new StaticErrorHandler("quota.html", Optional.of("over_quota"))),
        d.staticErrorHandlers());
  }

  @Test
  void autoIdPolicyIsParsed() throws Exception {
    assertEquals(
        Optional.of("legacy"),
        parseBody("<auto-id-policy>legacy</auto-id-policy>\n").autoIdPolicy());
  }

  @Test
  void apiConfigIsParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <api-config servlet-class="a.B" url-pattern="/_ah/api/*">
              <endpoint-servlet-mapping-id>m1</endpoint-servlet-mapping-id>
            </api-config>
            """);
    assertEquals("a.B", d.apiConfig().orElseThrow().servletClass());
    assertEquals("/_ah/api/*", d.apiConfig().orElseThrow().urlPattern());
    assertEquals(List.of("m1"), d.apiConfig().orElseThrow().endpointServletMappingIds());
  }

  @Test
  void pagespeedIsParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <pagespeed>
              <url-blacklist>http://x/*</url-blacklist>
              <enabled-rewriter>ProxyCss</enabled-rewriter>
            </pagespeed>
            """);
    assertEquals(List.of("http://x/*"), d.pagespeed().orElseThrow().urlBlacklist());
    assertEquals(List.of("ProxyCss"), d.pagespeed().orElseThrow().enabledRewriters());
  }

  @Test
  void envAndEntrypointAreParsed() throws Exception {
    AppEngineWebXml d = parseBody("<env>flex</env>\n<entrypoint>java -jar a.jar</entrypoint>\n");
    assertEquals(Optional.of("flex"), d.env());
    assertEquals(Optional.of("java -jar a.jar"), d.entrypoint());
  }

  @Test
  void betaSettingsAreParsed() throws Exception {
    assertEquals(
        Map.of("k", "v"),
        parseBody("<beta-settings><setting name=\"k\" value=\"v\"/></beta-settings>\n")
            .betaSettings());
  }

  @Test
  void healthChecksAreParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <health-check><enable-health-check>true</enable-health-check></health-check>
            <liveness-check><path>/live</path><timeout-sec>4</timeout-sec></liveness-check>
            <readiness-check><app-start-timeout-sec>300</app-start-timeout-sec></readiness-check>
            """);
    assertEquals(Map.of("enable-health-check", "true"), d.healthCheck());
    assertEquals(Map.of("path", "/live", "timeout-sec", "4"), d.livenessCheck());
    assertEquals(Map.of("app-start-timeout-sec", "300"), d.readinessCheck());
  }

  @Test
  void useGoogleConnectorJIsParsed() throws Exception {
    assertEquals(
        Optional.of(true),
        parseBody("<use-google-connector-j>true</use-google-connector-j>\n").useGoogleConnectorJ());
  }

  @Test
  void codeLockIsParsed() throws Exception {
    assertTrue(parseBody("<code-lock>true</code-lock>\n").codeLock());
  }

  @Test
  void resourcesAndNetworkAreParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <resources><cpu>2</cpu><memory-gb>2.3</memory-gb></resources>
            <network><forwarded-port>8081</forwarded-port><name>default</name></network>
            """);
    assertEquals("2.0", d.resources().get("cpu"));
    assertEquals(List.of("8081"), d.network().orElseThrow().forwardedPorts());
    assertEquals("default", d.network().orElseThrow().settings().get("name"));
  }

  @Test
  void userPermissionsAndBundledServicesAreParsed() throws Exception {
    AppEngineWebXml d =
        parseBody(
            """
            <user-permissions><permission class="java.io.FilePermission" name="/tmp"/></user-permissions>
            <app-engine-bundled-services><api>mail</api></app-engine-bundled-services>
            """);
    assertEquals("java.io.FilePermission", d.userPermissions().get(0).className());
    assertEquals(List.of("mail"), d.appEngineBundledServices());
  }

  @Test
  void commentsAndCdataAreHandled() throws Exception {
    assertEquals(
        Optional.of("java17"),
        parseBody("<!-- c --><runtime><![CDATA[java17]]></runtime>\n").runtime());
  }

  @Test
  void parsesFromPath(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("appengine-web.xml");
    Files.writeString(f, Descriptors.wrap("<runtime>java21</runtime>\n"));
    assertEquals(Optional.of("java21"), AppEngineWebXmlParser.parse(f).runtime());
  }

  @Test
  void declaredLatin1EncodingIsHonoured() throws Exception {
    byte[] xml =
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><appengine-web-app><application>caf\u00e9</application></appengine-web-app>"
            .getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(
        Optional.of("caf\u00e9"),
        AppEngineWebXmlParser.parse(new ByteArrayInputStream(xml), "x").application());
  }

  @Test
  void utf16WithByteOrderMarkIsRead() throws Exception {
    byte[] xml =
        "\uFEFF<appengine-web-app><runtime>java25</runtime></appengine-web-app>"
            .getBytes(StandardCharsets.UTF_16BE);
    assertEquals(
        Optional.of("java25"),
        AppEngineWebXmlParser.parse(new ByteArrayInputStream(xml), "x").runtime());
  }
}
