package dev.aerun.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stage --target appengine-standard} with a stand-in launcher distribution. */
class AppEngineStandardTest {
  static final String DESCRIPTOR =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
          + "<!-- the shop -->\n"
          + "<appengine-web-app xmlns=\"http://appengine.google.com/ns/1.0\">\n"
          + "  <runtime>java21</runtime>\n"
          + "  <service>shop</service>\n"
          + "  <app-engine-apis>true</app-engine-apis>\n"
          + "  <automatic-scaling><max-instances>3</max-instances>"
          + "<min-idle-instances>1</min-idle-instances></automatic-scaling>\n"
          + "  <env-variables><env-var name=\"COLOR\" value=\"blue &amp; green\"/></env-variables>\n"
          + "  <static-files><include path=\"/css/**\" expiration=\"1d\"/></static-files>\n"
          + "  <system-properties>\n"
          + "    <property name=\"appengine.use.HttpConnector\" value=\"true\"/>\n"
          + "  </system-properties>\n"
          + "</appengine-web-app>\n";

  @TempDir Path dir;
  Path home;

  /** A launcher distribution: runtime-main.jar and lib/ with every folder the real one has. */
  @BeforeEach
  void runtimeHome() throws IOException {
    home = Files.createDirectories(dir.resolve("dist"));
    Files.writeString(home.resolve("runtime-main.jar"), "launcher");
    Path lib = Files.createDirectories(home.resolve("lib"));
    Files.writeString(lib.resolve("runtime-core.jar"), "core");
    Files.writeString(lib.resolve("startup-classes.txt"), "classes");
    for (String folder : List.of("ee8", "ee10", "ee11", "legacy", "apihost", "stage")) {
      Files.writeString(Files.createDirectories(lib.resolve(folder)).resolve(folder + ".jar"), "x");
    }
  }

  Path war(String descriptor, String... extraEntries) throws IOException {
    Path war = dir.resolve("shop.war");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(war))) {
      zip.putNextEntry(new ZipEntry("WEB-INF/appengine-web.xml"));
      zip.write(descriptor.getBytes(StandardCharsets.UTF_8));
      zip.putNextEntry(new ZipEntry("index.html"));
      zip.write("<h1>shop</h1>".getBytes(StandardCharsets.UTF_8));
      for (String e : extraEntries) {
        zip.putNextEntry(new ZipEntry(e));
        zip.write(1);
      }
    }
    return war;
  }

  private String[] run(int expected, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = Stage.run(args, home, new PrintStream(out), new PrintStream(err));
    assertEquals(expected, exit, out + "\n" + err);
    return new String[] {out.toString(), err.toString()};
  }

  private static AppEngineWebXml read(Path descriptor) throws Exception {
    try (InputStream in = Files.newInputStream(descriptor)) {
      return AppEngineWebXmlParser.parse(in, descriptor.toString());
    }
  }

  @Test
  void stagesTheApp_withTheRuntimeItNeeds_andTheEntrypoint_keepingEverySetting() throws Exception {
    Path out = dir.resolve("out");
    String[] said =
        run(
            0,
            "--target",
            "appengine-standard",
            war(DESCRIPTOR, "css/site.css").toString(),
            out.toString());
    String entrypoint =
        "java -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -jar"
            + " WEB-INF/aerun/runtime-main.jar --log-format json --mode http --ee ee10 .";
    assertTrue(said[0].contains("entrypoint: " + entrypoint), said[0]);
    assertTrue(said[0].contains("gcloud app deploy " + out.resolve("WEB-INF/appengine-web.xml")));
    assertTrue(Files.isRegularFile(out.resolve("index.html")));
    assertTrue(Files.isRegularFile(out.resolve("css/site.css")));
    assertEquals("launcher", Files.readString(out.resolve("WEB-INF/aerun/runtime-main.jar")));
    assertTrue(Files.isRegularFile(out.resolve("WEB-INF/aerun/lib/runtime-core.jar")));
    assertTrue(Files.isRegularFile(out.resolve("WEB-INF/aerun/lib/startup-classes.txt")));
    assertTrue(Files.isRegularFile(out.resolve("WEB-INF/aerun/lib/ee10/ee10.jar")));
    for (String absent : List.of("ee8", "ee11", "legacy", "apihost", "stage")) {
      assertFalse(Files.exists(out.resolve("WEB-INF/aerun/lib/" + absent)), absent);
    }

    AppEngineWebXml before =
        AppEngineWebXmlParser.parse(
            new java.io.ByteArrayInputStream(DESCRIPTOR.getBytes(StandardCharsets.UTF_8)),
            "before");
    AppEngineWebXml after = read(out.resolve("WEB-INF/appengine-web.xml"));
    assertEquals(entrypoint, after.entrypoint().orElseThrow());
    assertEquals(before.runtime(), after.runtime());
    assertEquals(before.service(), after.service());
    assertEquals(before.appEngineApis(), after.appEngineApis());
    assertEquals(before.scaling(), after.scaling());
    assertEquals(before.envVariables(), after.envVariables());
    assertEquals(before.staticFiles(), after.staticFiles());
    assertEquals(before.systemProperties(), after.systemProperties());
    String xml = Files.readString(out.resolve("WEB-INF/appengine-web.xml"));
    assertTrue(xml.contains("<!-- the shop -->"), "comments are kept: " + xml);
    // Nothing left beside the output folder.
    try (Stream<Path> siblings = Files.list(dir)) {
      assertEquals(
          List.of("dist", "out", "shop.war"),
          siblings.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void legacyModeAndEe8_bringTheirJars_aMissingRuntimeIsJava17_anOldEntrypointGoes()
      throws Exception {
    Path out = dir.resolve("out");
    String descriptor =
        "<appengine-web-app xmlns=\"http://appengine.google.com/ns/1.0\">"
            + "<entrypoint>java -jar somewhere-else.jar</entrypoint></appengine-web-app>";
    String[] said =
        run(0, "--target", "appengine-standard", war(descriptor).toString(), out.toString());
    assertTrue(said[1].contains("note: no <runtime>: staged for java17"), said[1]);
    assertTrue(said[1].contains("note: the app's <entrypoint> is replaced"), said[1]);
    AppEngineWebXml after = read(out.resolve("WEB-INF/appengine-web.xml"));
    assertEquals("java17", after.runtime().orElseThrow());
    assertTrue(after.entrypoint().orElseThrow().endsWith("--mode legacy --ee ee8 ."));
    assertEquals(
        1,
        Files.readString(out.resolve("WEB-INF/appengine-web.xml")).split("<entrypoint>").length
            - 1);
    assertTrue(Files.isRegularFile(out.resolve("WEB-INF/aerun/lib/ee8/ee8.jar")));
    assertTrue(Files.isRegularFile(out.resolve("WEB-INF/aerun/lib/legacy/legacy.jar")));
    assertFalse(Files.exists(out.resolve("WEB-INF/aerun/lib/ee10")));
  }

  @Test
  void symbolicLinks_followTheRulesOfEveryTarget() throws Exception {
    Path app = Files.createDirectories(dir.resolve("exploded/WEB-INF")).getParent();
    Files.writeString(app.resolve("WEB-INF/appengine-web.xml"), DESCRIPTOR);
    Files.writeString(app.resolve("index.html"), "<h1>shop</h1>");
    Files.createSymbolicLink(app.resolve("home.html"), Path.of("index.html"));
    Path out = dir.resolve("out");
    run(0, "--target", "appengine-standard", app.toString(), out.toString());
    assertEquals(Path.of("index.html"), Files.readSymbolicLink(out.resolve("home.html")));

    Path secret = Files.writeString(dir.resolve("build-machine-secret.txt"), "s3cr3t");
    Files.createSymbolicLink(app.resolve("leak.txt"), secret);
    String[] said = run(1, "--target", "appengine-standard", app.toString(), out.toString());
    assertTrue(said[1].contains("symbolic link leak.txt"), said[1]);
    assertTrue(said[1].contains("leads out of the app"), said[1]);
    assertTrue(
        Files.isSymbolicLink(out.resolve("home.html")), "the earlier staging is left as it was");
    assertFalse(Files.exists(out.resolve("leak.txt")));
  }

  @Test
  void stagingAgain_replacesAnEarlierStaging_butNoOtherFolder() throws Exception {
    Path out = dir.resolve("out");
    run(0, "--target", "appengine-standard", war(DESCRIPTOR, "old.txt").toString(), out.toString());
    assertTrue(Files.exists(out.resolve("old.txt")));
    run(0, "--target", "appengine-standard", war(DESCRIPTOR).toString(), out.toString());
    assertFalse(Files.exists(out.resolve("old.txt")), "the earlier staging is replaced whole");

    Path other = Files.createDirectories(dir.resolve("other"));
    Files.writeString(other.resolve("precious.txt"), "keep me");
    String[] said =
        run(1, "--target", "appengine-standard", war(DESCRIPTOR).toString(), other.toString());
    assertTrue(said[1].startsWith("error: "), said[1]);
    assertTrue(said[1].contains("not empty"), said[1]);
    assertEquals("keep me", Files.readString(other.resolve("precious.txt")));
  }

  @Test
  void whatCannotBeStaged_isRefused_leavingNothing() throws Exception {
    Path out = dir.resolve("out");
    // The rules every target applies to the descriptor.
    String[] said =
        run(
            1,
            "--target",
            "appengine-standard",
            war(DESCRIPTOR.replace("java21", "java99")).toString(),
            out.toString());
    assertTrue(said[1].contains("java99"), said[1]);
    said =
        run(
            1,
            "--target",
            "appengine-standard",
            war(DESCRIPTOR.replace("blue &amp; green", "blue&#10;green")).toString(),
            out.toString());
    assertTrue(said[1].contains("line break"), said[1]);
    // The mode and EE version are chosen by the rules of the runtime itself, refusals included.
    said =
        run(
            1,
            "--target",
            "appengine-standard",
            war(DESCRIPTOR.replace(
                    "</system-properties>",
                    "  <property name=\"appengine.use.EE8\" value=\"true\"/>\n"
                        + "    <property name=\"appengine.use.EE11\" value=\"true\"/>\n"
                        + "  </system-properties>"))
                .toString(),
            out.toString());
    assertTrue(said[1].startsWith("error: shop.war!/WEB-INF/appengine-web.xml: "), said[1]);
    assertTrue(said[1].contains("conflicting EE flags"), said[1]);
    said =
        run(
            1,
            "--target",
            "appengine-standard",
            war(DESCRIPTOR, "WEB-INF/aerun/x.jar").toString(),
            out.toString());
    assertTrue(said[1].contains("WEB-INF/aerun of its own"), said[1]);
    said =
        run(
            1,
            "--target",
            "appengine-standard",
            war(DESCRIPTOR, "../evil.txt").toString(),
            out.toString());
    assertTrue(said[1].contains("outside the app"), said[1]);
    assertFalse(Files.exists(dir.resolve("evil.txt")));
    assertFalse(Files.exists(out), "nothing half-staged");
    try (Stream<Path> siblings = Files.list(dir)) {
      assertEquals(
          List.of("dist", "shop.war"),
          siblings.map(p -> p.getFileName().toString()).sorted().toList());
    }
    // An output folder inside the app (or the app inside it) would copy itself.
    Path exploded = Files.createDirectories(dir.resolve("exploded/WEB-INF"));
    Files.writeString(exploded.resolve("appengine-web.xml"), DESCRIPTOR);
    said =
        run(
            1,
            "--target",
            "appengine-standard",
            exploded.getParent().toString(),
            exploded.getParent().resolve("staged").toString());
    assertTrue(said[1].contains("must not contain each other"), said[1]);
    // An output folder that is a symbolic link (to anywhere) is not written through.
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Path link = Files.createSymbolicLink(dir.resolve("linked-out"), elsewhere);
    said = run(1, "--target", "appengine-standard", war(DESCRIPTOR).toString(), link.toString());
    assertTrue(said[1].contains("not a directory"), said[1]);
    try (Stream<Path> written = Files.list(elsewhere)) {
      assertEquals(0, written.count());
    }
    // No distribution to copy the runtime from.
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(
        1,
        Stage.run(
            new String[] {
              "--target", "appengine-standard", war(DESCRIPTOR).toString(), out.toString()
            },
            null,
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err)));
    assertTrue(err.toString().contains("launcher's distribution"), err.toString());
    assertEquals(
        2,
        Stage.run(
            new String[] {"--target", "nowhere", "a", "b"},
            home,
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(new ByteArrayOutputStream())));
  }
}
