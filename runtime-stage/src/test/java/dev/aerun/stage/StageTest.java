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
    for (Object doc : new Yaml().loadAll(Files.readString(out.resolve("kubernetes.yaml")))) {
      if ("Deployment".equals(ManifestsTest.at(doc, "kind"))) {
        assertEquals(
            image, ManifestsTest.at(doc, "spec", "template", "spec", "containers", 0, "image"));
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
}
