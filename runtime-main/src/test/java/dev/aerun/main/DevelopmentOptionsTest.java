package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.runtime.logging.LogFormat;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The options and rules of {@code --development} and {@code --watch}, without a server. */
class DevelopmentOptionsTest {
  private static LaunchOptions parse(String... args) throws Exception {
    return LaunchOptions.parse(Map.of(), Map.of(), args);
  }

  @Test
  void ee_isReadAndAcceptsEe11() throws Exception {
    assertEquals(EeVersion.EE8, parse("--ee", "ee8", "app").ee().orElseThrow());
    assertEquals(EeVersion.EE10, parse("--ee=EE10", "app").ee().orElseThrow());
    assertEquals(EeVersion.EE11, parse("--ee", "ee11", "app").ee().orElseThrow());
    assertTrue(parse("app").ee().isEmpty());
    UsageException e = assertThrows(UsageException.class, () -> parse("--ee", "ee9", "app"));
    assertTrue(e.getMessage().contains("'ee8', 'ee10' or 'ee11'"), e.getMessage());
  }

  @Test
  void watch_needsDevelopment() {
    UsageException e = assertThrows(UsageException.class, () -> parse("--watch", "app"));
    assertTrue(e.getMessage().contains("--development"), e.getMessage());
  }

  @Test
  void development_logsTextUnlessAFormatIsGiven() throws Exception {
    assertEquals(LogFormat.TEXT, parse("--development", "app").logFormat());
    assertEquals(LogFormat.AUTO, parse("app").logFormat());
    assertEquals(LogFormat.JSON, parse("--development", "--log-format", "json", "app").logFormat());
  }

  @Test
  void classpath_isSplitOnThePathSeparator() throws Exception {
    LaunchOptions options =
        parse("--classpath", "target/classes" + File.pathSeparator + "lib/a.jar", "app");
    assertEquals(List.of(Path.of("target/classes"), Path.of("lib/a.jar")), options.classpath());
  }

  @Test
  void parentPid_isRead() throws Exception {
    assertEquals(42L, parse("--parent-pid", "42", "app").parentPid().orElseThrow());
    assertThrows(UsageException.class, () -> parse("--parent-pid", "0", "app"));
  }

  @Test
  void development_trustsLoopbackOnly_production_nobody() throws Exception {
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    InetAddress v6 = InetAddress.getByName("::1");
    InetAddress other = InetAddress.getByName("10.1.2.3");
    var dev = AppSettings.trust(parse("--development", "app"));
    assertTrue(dev.isTrusted(loopback));
    assertTrue(dev.isTrusted(v6));
    assertFalse(dev.isTrusted(other));
    // Only for requests naming this machine: a rebound page's requests come from loopback too.
    assertTrue(dev.isTrusted(loopback, "localhost"));
    assertTrue(dev.isTrusted(v6, "[::1]"));
    assertTrue(dev.isTrusted(loopback, "127.0.0.1"));
    assertFalse(dev.isTrusted(loopback, "rebind.evil.example"));
    assertFalse(dev.isTrusted(loopback, null));
    assertFalse(dev.isTrusted(other, "localhost"));
    var devHosts = AppSettings.trust(parse("--development", "--dev-hosts", "devbox.test", "app"));
    assertTrue(devHosts.isTrusted(loopback, "devbox.test"));
    assertFalse(devHosts.isTrusted(other, "devbox.test"));
    var production = AppSettings.trust(parse("app"));
    assertFalse(production.isTrusted(loopback));
    var named = AppSettings.trust(parse("--development", "--trusted-proxies", "10.0.0.0/8", "app"));
    assertFalse(named.isTrusted(loopback), "--trusted-proxies replaces the development default");
    assertTrue(named.isTrusted(other));
    assertTrue(named.isTrusted(other, "app.example.com"), "a proxy forwards any host name");
  }

  @Test
  void development_listensOnLoopbackByDefault_productionEverywhere() throws Exception {
    assertEquals("127.0.0.1", parse("--development", "app").address());
    assertEquals("0.0.0.0", parse("app").address());
    assertEquals("0.0.0.0", parse("--development", "--address", "0.0.0.0", "app").address());
    assertEquals("10.0.0.5", parse("--address", "10.0.0.5", "app").address());
  }

  @Test
  void development_boundElsewhere_warns() {
    assertNull(DevServer.exposureWarning("127.0.0.1"));
    assertNull(DevServer.exposureWarning("127.0.0.2"));
    assertNull(DevServer.exposureWarning("::1"));
    assertNull(DevServer.exposureWarning("localhost"));
    for (String address : List.of("0.0.0.0", "10.0.0.5", "::", "myhost.example")) {
      String warning = DevServer.exposureWarning(address);
      assertTrue(warning != null && warning.contains("reachable from other machines"), address);
    }
  }

  @Test
  void devHosts_areReadChecked_andNeedDevelopment() throws Exception {
    LaunchOptions options = parse("--development", "--dev-hosts", "DevBox.test, vm.local", "app");
    assertEquals(java.util.Set.of("devbox.test", "vm.local"), options.devHosts().names());
    assertTrue(options.devHosts().test("localhost"));
    assertTrue(parse("--development", "app").devHosts().names().isEmpty());
    UsageException bad =
        assertThrows(
            UsageException.class, () -> parse("--development", "--dev-hosts", "a b", "app"));
    assertTrue(bad.getMessage().startsWith("--dev-hosts: "), bad.getMessage());
    UsageException empty =
        assertThrows(
            UsageException.class, () -> parse("--development", "--dev-hosts", "a,,b", "app"));
    assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
    UsageException production =
        assertThrows(UsageException.class, () -> parse("--dev-hosts", "a", "app"));
    assertTrue(production.getMessage().contains("--development"), production.getMessage());
  }

  @Test
  void statusPage_masksValuesWhoseNamesLookSecret() {
    for (String name :
        List.of(
            "db.password",
            "DB_PASSWD",
            "app.secret",
            "oauth.token",
            "api.key",
            "gcp.credentials",
            "sample.ApiKey")) {
      String shown = DevServer.shown(name, "s3cr3t");
      assertFalse(shown.contains("s3cr3t"), name);
      assertTrue(shown.startsWith("********"), name);
    }
    assertEquals("hello", DevServer.shown("sample.greeting", "hello"));
    assertEquals("true", DevServer.shown("appengine.use.HttpConnector", "true"));
  }

  @Test
  void needsNewJvm_forModeEeEnvVariablesAndSystemProperties_notForTheRest() throws Exception {
    AppEngineWebXml base = descriptor("<sessions-enabled>false</sessions-enabled>");
    RuntimeSelection http =
        new RuntimeSelection(ServingMode.HTTP_CONNECTOR, EeVersion.EE10, "java21", List.of());
    RuntimeSelection legacy =
        new RuntimeSelection(ServingMode.LEGACY_RPC, EeVersion.EE10, "java21", List.of());
    RuntimeSelection ee8 =
        new RuntimeSelection(ServingMode.HTTP_CONNECTOR, EeVersion.EE8, "java21", List.of());
    assertNull(
        DevServer.needsNewJvm(
            base, http, descriptor("<sessions-enabled>true</sessions-enabled>"), http));
    assertEquals("serving mode", DevServer.needsNewJvm(base, http, base, legacy));
    assertEquals("EE version", DevServer.needsNewJvm(base, http, base, ee8));
    assertEquals(
        "<env-variables>",
        DevServer.needsNewJvm(
            base,
            http,
            descriptor("<env-variables><env-var name=\"A\" value=\"1\"/></env-variables>"),
            http));
    assertEquals(
        "<system-properties>",
        DevServer.needsNewJvm(
            base,
            http,
            descriptor("<system-properties><property name=\"a\" value=\"1\"/></system-properties>"),
            http));
  }

  private static AppEngineWebXml descriptor(String body) throws Exception {
    String xml =
        "<appengine-web-app xmlns=\"http://appengine.google.com/ns/1.0\"><runtime>java21</runtime>"
            + body
            + "</appengine-web-app>";
    return AppEngineWebXmlParser.parse(
        new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "appengine-web.xml");
  }
}
