package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.apis.ApiHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which API host the options and the environment name, and where the local host's data lives. */
class ApiHostOptionsTest {
  @TempDir Path tmp;

  private ApiHostOptions parse(Map<String, String> environment, String... args) throws Exception {
    String[] withApp = new String[args.length + 1];
    System.arraycopy(args, 0, withApp, 0, args.length);
    withApp[args.length] = "app";
    return LaunchOptions.parse(environment, Map.of(), withApp).apiHosts();
  }

  @Test
  void noHostIsNamedByDefault() throws Exception {
    ApiHostOptions apis = parse(Map.of());
    assertTrue(apis.named().isEmpty());
    assertTrue(apis.dataDirectory().isEmpty());
    assertFalse(apis.clearData());
  }

  @Test
  void apiHostAndPortFromTheEnvironment() throws Exception {
    ApiHost host = parse(Map.of("API_HOST", "10.1.2.3", "API_PORT", "9000")).named().orElseThrow();
    assertEquals("10.1.2.3:9000", host.authority());
    assertEquals(null, host.secret());
  }

  @Test
  void eachOfApiHostAndPortDefaultsToThePlatforms() throws Exception {
    assertEquals(
        ApiHost.PLATFORM_HOST + ":9000",
        parse(Map.of("API_PORT", "9000")).named().orElseThrow().authority());
    assertEquals(
        "h:" + ApiHost.PLATFORM_PORT,
        parse(Map.of("API_HOST", "h")).named().orElseThrow().authority());
  }

  @Test
  void localApiHostPortIsTheDevVariable() throws Exception {
    assertEquals(
        "localhost:8089",
        parse(Map.of("LOCAL_API_HOSTPORT", "localhost:8089")).named().orElseThrow().authority());
  }

  @Test
  void theOptionWinsOverTheEnvironment() throws Exception {
    ApiHost host =
        parse(Map.of("API_HOST", "env", "API_PORT", "1"), "--api-host", "[::1]:7000")
            .named()
            .orElseThrow();
    assertEquals("[::1]:7000", host.authority());
    assertEquals("--api-host", host.source());
  }

  @Test
  void badValuesAreUsageErrorsNamingTheirSource() {
    UsageException option =
        assertThrows(UsageException.class, () -> parse(Map.of(), "--api-host", "nohostport"));
    assertTrue(option.getMessage().startsWith("--api-host"), option.getMessage());
    UsageException variable =
        assertThrows(UsageException.class, () -> parse(Map.of("API_PORT", "http")));
    assertTrue(variable.getMessage().contains("API_PORT"), variable.getMessage());
  }

  @Test
  void dataFolderOptions() throws Exception {
    ApiHostOptions apis = parse(Map.of(), "--api-data", "/srv/data", "--api-data-clear");
    assertEquals(Path.of("/srv/data"), apis.dataDirectory().orElseThrow());
    assertTrue(apis.clearData());
  }

  @Test
  void dataHomeFollowsXdgThenHome() throws Exception {
    assertEquals(Path.of("/x"), parse(Map.of("XDG_DATA_HOME", "/x", "HOME", "/h")).dataHome());
    assertEquals(Path.of("/h/.local/share"), parse(Map.of("HOME", "/h")).dataHome());
  }

  @Test
  void defaultDataFolderIsOnePerAppLocation() throws Exception {
    Path one = Files.createDirectories(tmp.resolve("one/My App.war"));
    Path two = Files.createDirectories(tmp.resolve("two/My App.war"));
    Files.createDirectories(one.resolve("WEB-INF"));
    Files.createDirectories(two.resolve("WEB-INF"));
    Files.writeString(one.resolve("WEB-INF/appengine-web.xml"), "<appengine-web-app/>");
    Files.writeString(two.resolve("WEB-INF/appengine-web.xml"), "<appengine-web-app/>");
    Path first = BundledServices.defaultStorage(StagedApp.open(one), Path.of("/d"));
    Path again = BundledServices.defaultStorage(StagedApp.open(one), Path.of("/d"));
    Path second = BundledServices.defaultStorage(StagedApp.open(two), Path.of("/d"));
    assertEquals(first, again);
    assertNotEquals(first, second);
    assertTrue(first.startsWith(Path.of("/d/aerun/api-data")), first.toString());
    assertTrue(
        first.getFileName().toString().matches("my_app\\.war-[0-9a-f]{12}"), first.toString());
  }

  @Test
  void appConfigurationIsCopiedIntoTheDataFolder() throws Exception {
    Path app = Files.createDirectories(tmp.resolve("app/WEB-INF"));
    Files.writeString(app.resolve("appengine-web.xml"), "<appengine-web-app/>");
    Files.writeString(app.resolve("queue.xml"), "<queue-entries/>");
    Path data = tmp.resolve("data");
    Files.createDirectories(data.resolve("WEB-INF"));
    Files.writeString(data.resolve("WEB-INF/datastore-indexes.xml"), "stale");
    BundledServices.copyConfiguration(StagedApp.open(tmp.resolve("app")), data);
    assertEquals("<queue-entries/>", Files.readString(data.resolve("WEB-INF/queue.xml")));
    assertFalse(Files.exists(data.resolve("WEB-INF/datastore-indexes.xml")));
  }
}
