package dev.aerun.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aerun.stage.JspPrecompiler;
import dev.aerun.stage.RuntimeImages;
import dev.aerun.stage.Stage;
import dev.aerun.stage.oci.Layer;
import dev.aerun.stage.oci.OciImage;
import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the runtime images as a container runtime would: the sample app is staged onto each image,
 * the image's layers are unpacked into a root file system of their own, and its entrypoint runs
 * there (a new mount and PID namespace, {@code chroot}, the image's user), with the image's
 * environment and nothing of this machine's. Needs root, as CI has.
 */
class ImageRunTest {
  private static final Pattern CLASS_LOAD =
      Pattern.compile("\\[class,load\\] (\\S+) source: ([^\\n]*)");
  private static final Path IMAGES = Path.of(System.getProperty("aerun.images.dir"));
  private static final Path APPS = Path.of(System.getProperty("aerun.apps.dir"));
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

  /** The default EE version of each image's runtime id, which an app gets unless it asks. */
  private static final Map<String, String> DEFAULT_EE =
      Map.of("java17", "ee8", "java21", "ee10", "java25", "ee11");

  @TempDir Path dir;

  static List<String> images() {
    return Arrays.asList(System.getProperty("aerun.images", "java17").split(","));
  }

  /** {@code -Pjdk-only} builds no image: then, and only then, these tests are skipped. */
  @BeforeEach
  void imagesWereBuilt() {
    assumeTrue(!Boolean.getBoolean("aerun.jdkOnly"), "-Pjdk-only: no image was built");
  }

  /**
   * Running an image's root file system needs root (CI runs as root): without it, a failure that
   * says so, so that a build never drops these tests by itself.
   */
  static void assumeRoot() throws Exception {
    Process id = new ProcessBuilder("id", "-u").start();
    String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!"0".equals(uid)) {
      fail(
          "running an image's root file system needs root (namespaces, chroot), as CI has;"
              + " without root, build with -Pjdk-only, which skips the images and these tests");
    }
  }

  @ParameterizedTest
  @MethodSource("images")
  void stagedApp_servesBothModes_asTheImagesUserAndJvm_andDrainsOnSigterm(String runtime)
      throws Exception {
    assumeRoot();
    String ee = runtime.equals("java17") ? "ee8" : "ee10";
    Path app = explode(APPS.resolve("sample-" + ee + "-app.war"), dir.resolve("app"), runtime);
    Path out = dir.resolve("staged");
    Stage.Staged staged = Stage.stage(app, out, "test.local/sample", IMAGES);
    assertTrue(staged.image().startsWith("test.local/sample@sha256:"), staged.image());

    OciImage image = unpack(out);
    Path root = dir.resolve("rootfs");
    ObjectNode config = image.containerConfig();
    assertEquals("65532:65532", config.path("User").asText());
    List<String> entrypoint = strings(config.path("Entrypoint"));
    assertTrue(entrypoint.get(0).startsWith("/usr/lib/jvm/"), entrypoint::toString);
    assertTrue(
        entrypoint.stream()
            .anyMatch(o -> o.startsWith("-XX:SharedArchiveFile=") || o.startsWith("-XX:AOTCache=")),
        "a class-data-sharing archive from a training run: " + entrypoint);
    assertTrue(Files.isExecutable(root.resolve(entrypoint.get(0).substring(1))));
    assertTrue(
        Files.isRegularFile(root.resolve("usr/share/doc/libc6/copyright")),
        "the packages' copyright files are kept");
    assertFalse(Files.exists(root.resolve("bin/sh")), "no shell in the image");

    for (String mode : List.of("http", "legacy")) {
      // The archive required and the class loading logged: the archive covers both modes.
      Container c =
          Container.start(root, config, List.of("--mode", mode), archiveRequired(runtime));
      try {
        int port = c.port();
        String hello = get(port, "/hello");
        assertCoversTheStart(c.output(), DEFAULT_EE.get(runtime), mode, 0.85, true);
        assertEquals(ee.equals("ee8") ? "Hello from EE8" : "Hello from EE10", hello, c.output());
        String info = get(port, "/request-info");
        assertTrue(info.contains("from-appengine-web-xml"), "env from the image config: " + info);
        ProcessHandle jvm = c.jvm();
        String exe = Files.readSymbolicLink(Path.of("/proc/" + jvm.pid() + "/exe")).toString();
        assertEquals(root.resolve(entrypoint.get(0).substring(1)).toString(), exe, "image's JVM");
        assertTrue(
            Files.readString(Path.of("/proc/" + jvm.pid() + "/status")).contains("\nUid:\t65532\t"),
            "runs as the image's non-root user");
        assertCodecsFromTheImage(jvm);
        assertTrue(jvm.destroy(), "SIGTERM sent"); // SIGTERM: the runtime drains
        assertEquals(0, c.waitForExit(), c.output());
        assertFalse(c.output().contains("again with"), "no relaunch inside the image");
        assertTrue(
            c.output().lines().anyMatch(l -> l.startsWith("{\"") && l.contains("\"severity\"")),
            "JSON logs: " + c.output());
        assertFalse(c.output().contains("[cds]"), "the archive matches: " + c.output());
      } finally {
        c.kill();
      }
    }
  }

  /**
   * The JSP sample staged with its JSPs precompiled (the JSP stack of this build's launcher, {@code
   * runtime-main/target/lib}, which the image runs too): the image serves {@code /jstl.jsp} from
   * the staged class, and its JVM compiles nothing (no source or class of the JSP in the image's
   * {@code /tmp}, where the runtime's scratch folder is; the unstaged app's first JSP request
   * writes both there, see the e2e {@code JspPrecompileTest}).
   */
  @ParameterizedTest
  @MethodSource("images")
  void stagedJsp_isServedFromItsPrecompiledClass_andTheImageCompilesNothing(String runtime)
      throws Exception {
    assumeRoot();
    String ee = runtime.equals("java17") ? "ee8" : "ee10";
    Path app = explode(APPS.resolve("sample-" + ee + "-app.war"), dir.resolve("app"), runtime);
    Path out = dir.resolve("staged");
    Stage.Staged staged =
        Stage.stage(
            app,
            out,
            "test.local/sample",
            RuntimeImages.in(IMAGES),
            false,
            JspPrecompiler.beside(Path.of("../runtime-main/target").toAbsolutePath()));
    assertTrue(
        staged.notes().stream().noneMatch(n -> n.contains("not precompiled")), staged::toString);
    assertTrue(
        Files.isRegularFile(out.resolve("app/WEB-INF/classes/org/apache/jsp/jstl_jsp.class")));
    OciImage image = unpack(out);
    Path root = dir.resolve("rootfs");
    Container c = Container.start(root, image.containerConfig(), List.of("--mode", "http"));
    try {
      String body = get(c.port(), "/jstl.jsp?name=World");
      assertTrue(body.startsWith("JSP on " + ee.toUpperCase() + ": 1,2,3, name=World"), body);
      try (Stream<Path> work = Files.list(root.resolve("tmp"))) {
        assertTrue(
            work.anyMatch(p -> p.getFileName().toString().startsWith("aerun-webapp-")),
            "the runtime's working directory, where Jasper would compile, is in the image's /tmp");
      }
      try (Stream<Path> files = Files.walk(root.resolve("tmp"))) {
        assertEquals(
            List.of(),
            files
                .map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("jstl_jsp"))
                .toList(),
            "the image compiled the JSP:\n" + c.output());
      }
    } finally {
      c.kill();
    }
  }

  /**
   * The image's class-data-sharing archive serves an EE version other than the image's default in
   * legacy RPC mode (the launcher's default) too, though trained on the default one only
   * (bin/train-cds.sh): what the EE versions share, the launcher's and {@code lib/}'s classes and
   * legacy mode's, comes from it. java17's EE10 (a jakarta app on java17), java21's EE8 (a javax
   * app moved to java21), java25's EE10. The image's default EE version in both modes is checked
   * where {@link #stagedApp_servesBothModes_asTheImagesUserAndJvm_andDrainsOnSigterm} starts them.
   */
  @ParameterizedTest
  @MethodSource("images")
  void archive_coversAnotherEeVersion_inLegacyMode(String runtime) throws Exception {
    assumeRoot();
    String ee = Map.of("java17", "ee10", "java21", "ee8", "java25", "ee10").get(runtime);
    String war = ee.equals("ee8") ? "sample-ee8-app.war" : "sample-ee10-app.war";
    Path app = explode(APPS.resolve(war), dir.resolve("app"), runtime);
    Stage.stage(app, dir.resolve("staged"), "test.local/sample", IMAGES);
    OciImage image = unpack(dir.resolve("staged"));
    Path root = dir.resolve("rootfs");
    Container c =
        Container.start(
            root,
            image.containerConfig(),
            List.of("--mode", "legacy", "--ee", ee),
            archiveRequired(runtime));
    try {
      get(c.port(), "/hello");
      assertCoversTheStart(c.output(), ee, "legacy", 0.8, false);
      assertTrue(c.jvm().destroy(), "SIGTERM sent");
      assertEquals(0, c.waitForExit(), c.output());
    } finally {
      c.kill();
    }
  }

  /**
   * The response codecs' native libraries are mapped from the image's {@code
   * /opt/aerun/lib/native}, where its build put them: not copies the codecs made in {@code /tmp} at
   * the start.
   */
  static void assertCodecsFromTheImage(ProcessHandle jvm) throws IOException {
    List<String> maps = Files.readAllLines(Path.of("/proc/" + jvm.pid() + "/maps"));
    for (String library : List.of("libbrotli", "libzstd-jni")) {
      List<String> mapped =
          maps.stream()
              .filter(l -> l.contains("/" + library))
              .map(l -> l.substring(l.indexOf('/')))
              .distinct()
              .toList();
      // The path as this process sees it: under the container's root file system.
      assertEquals(1, mapped.size(), library + " mapped once: " + mapped);
      assertTrue(
          mapped.get(0).endsWith("/opt/aerun/lib/native/" + library + ".so"), mapped::toString);
    }
  }

  /**
   * The JVM options that require the image's archive ({@code -Xshare:on}; JDK 25 {@code
   * -XX:AOTMode=on}: a JVM that cannot map it does not start) and log where each class came from.
   */
  static Map<String, String> archiveRequired(String runtime) {
    String required = runtime.equals("java25") ? "-XX:AOTMode=on" : "-Xshare:on";
    return Map.of("JAVA_TOOL_OPTIONS", required + " -Xlog:class+load=info:stdout");
  }

  /**
   * At least {@code share} of the classes loaded up to the first 200 (in {@code output}, logged by
   * {@link #archiveRequired}) come from the archive: without it, only the JDK's own default
   * archive's share, about a third; trained in HttpConnector mode only, legacy RPC mode got 71 to
   * 82 %. The launcher's and {@code lib/}'s classes among them (in legacy mode its gRPC ones), and
   * the EE loader's if {@code eeLoader} (the EE version the archive was trained on).
   */
  static void assertCoversTheStart(
      String output, String ee, String mode, double share, boolean eeLoader) {
    Map<String, String> sources = new java.util.HashMap<>();
    Matcher m = CLASS_LOAD.matcher(output);
    while (m.find()) {
      sources.putIfAbsent(m.group(1), m.group(2));
    }
    long shared = sources.values().stream().filter(s -> s.startsWith("shared objects")).count();
    String summary =
        String.format(
            "%s, %s mode: %d of %d classes from the archive", ee, mode, shared, sources.size());
    assertTrue(sources.size() > 1000, "class loading logged: " + summary + "\n" + output);
    assertTrue(shared >= share * sources.size(), summary);
    List<String> names =
        new ArrayList<>(
            List.of(
                "dev.aerun.main.RuntimeStarter", // the launcher jar (application class path)
                "org.eclipse.jetty.server.Server")); // lib/ (the jar's Class-Path)
    if (mode.equals("legacy")) {
      names.add("dev.aerun.rpc.LegacyRpcServer"); // legacy mode's own
      names.add("io.grpc.inprocess.InProcessServerBuilder");
    }
    if (eeLoader) {
      names.add("org.eclipse.jetty." + ee + ".webapp.WebAppContext"); // lib/<ee>: the EE loader
    }
    for (String name : names) {
      assertTrue(
          sources.getOrDefault(name, "").startsWith("shared objects"),
          name + " from the archive, not " + sources.get(name) + " (" + summary + ")");
    }
  }

  /**
   * {@code GAE_MEMORY_MB} below the memory the JVM sees (here: no container limit, the machine's)
   * sizes the heap: the launcher starts the serving JVM again with {@code -XX:MaxRAM} at that
   * figure, and it serves and drains as usual.
   */
  @ParameterizedTest
  @MethodSource("images")
  void gaeMemoryMb_sizesTheHeap(String runtime) throws Exception {
    assumeRoot();
    String ee = runtime.equals("java17") ? "ee8" : "ee10";
    Path app = explode(APPS.resolve("sample-" + ee + "-app.war"), dir.resolve("app"), runtime);
    Stage.Staged staged = Stage.stage(app, dir.resolve("staged"), "test.local/sample", IMAGES);
    OciImage image = unpack(dir.resolve("staged"));
    Path root = dir.resolve("rootfs");
    ObjectNode config = image.containerConfig();
    Container c = Container.start(root, config, List.of(), Map.of("GAE_MEMORY_MB", "192"));
    try {
      int port = c.port();
      get(port, "/hello");
      List<ProcessHandle> jvms = c.jvms();
      assertEquals(2, jvms.size(), "the launcher and the serving JVM:\n" + c.output());
      String serving = Files.readString(Path.of("/proc/" + jvms.get(1).pid() + "/cmdline"));
      List<String> options = List.of(serving.split("\0"));
      assertTrue(options.contains("-XX:MaxRAM=192m"), options::toString);
      assertTrue(
          options.contains(strings(config.path("Entrypoint")).get(1)),
          "the serving JVM keeps the image's options (its archive): " + options);
      assertTrue(c.output().contains("GAE_MEMORY_MB is below"), c.output());
      assertTrue(jvms.get(0).destroy(), "SIGTERM to the launcher, as a platform sends it");
      assertEquals(0, c.waitForExit(), c.output());
      assertTrue(c.output().contains("drained"), c.output());
    } finally {
      c.kill();
    }
    assertTrue(staged.image().startsWith("test.local/sample@"), staged.image());
  }

  /**
   * The root file system and runtime layers, and so the image without a class-data-sharing archive,
   * come out the same on every build; the archive's layer is the documented exception.
   */
  @Test
  void buildTwice_sameLayers() throws Exception {
    Path again = dir.resolve("again");
    run(
        List.of(
            Path.of(System.getProperty("aerun.images.bin"), "build-image.sh").toString(),
            "java17",
            again.toString(),
            System.getProperty("aerun.runtime.target")));
    List<Layer> first = OciImage.read(IMAGES.resolve("java17.tar"), dir.resolve("b1")).layers();
    List<Layer> second = OciImage.read(again.resolve("java17.tar"), dir.resolve("b2")).layers();
    assertEquals(2, second.size(), "built without a training app: no archive layer");
    for (int i = 0; i < 2; i++) {
      assertEquals(first.get(i).digest(), second.get(i).digest(), "layer " + i);
    }
  }

  /** The image staged into {@code staged}, its layers unpacked into {@code dir/rootfs}. */
  private OciImage unpack(Path staged) throws Exception {
    OciImage image = OciImage.read(staged.resolve("image.tar"), dir.resolve("blobs"));
    Path root = Files.createDirectories(dir.resolve("rootfs"));
    for (Layer layer : image.layers()) {
      run(
          List.of(
              "tar", "--numeric-owner", "-xzf", layer.file().toString(), "-C", root.toString()));
    }
    return image;
  }

  /** The war unpacked, its descriptor's runtime set to {@code runtime}. */
  static Path explode(Path war, Path to, String runtime) throws IOException {
    AppCopies.explode(war, to);
    Path descriptor = to.resolve("WEB-INF/appengine-web.xml");
    Files.writeString(
        descriptor,
        Files.readString(descriptor)
            .replaceAll("<runtime>[^<]*</runtime>", "<runtime>" + runtime + "</runtime>"));
    return to;
  }

  static String get(int port, String path) throws Exception {
    HttpResponse<String> response =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }

  static void run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(20, TimeUnit.MINUTES) || p.exitValue() != 0) {
      fail(command + " failed:\n" + output);
    }
  }

  static List<String> strings(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(n -> list.add(n.asText()));
    return list;
  }

  /**
   * The entrypoint running in {@code root}, in new mount and PID namespaces, with the image's
   * environment and nothing of this machine's; started and watched by the test harness.
   */
  static final class Container {
    private final RuntimeProcess process;
    private final Path root;

    private Container(RuntimeProcess process, Path root) {
      this.process = process;
      this.root = root;
    }

    static Container start(Path root, JsonNode config, List<String> args) throws IOException {
      return start(root, config, args, Map.of());
    }

    static Container start(Path root, JsonNode config, List<String> args, Map<String, String> env)
        throws IOException {
      List<String> command = new ArrayList<>(List.of("env", "-i"));
      command.addAll(strings(config.path("Env")));
      command.add("PORT=0");
      env.forEach((name, value) -> command.add(name + "=" + value));
      command.addAll(List.of("unshare", "--mount", "--pid", "--fork", "--kill-child", "sh", "-c"));
      // The mounts a container runtime gives: /proc (the JVM reads it) and the devices.
      command.add(
          "root=$0 user=$1; shift; mount -t proc proc \"$root/proc\""
              + " && mount --rbind /dev \"$root/dev\""
              + " && exec chroot --userspec=\"$user\" \"$root\" \"$@\"");
      command.add(root.toString());
      command.add(config.path("User").asText());
      command.addAll(strings(config.path("Entrypoint")));
      command.addAll(args);
      Path log = Files.createTempFile(root.getParent(), "container-", ".log");
      return new Container(RuntimeProcess.start("the container", command, Map.of(), log), root);
    }

    int port() {
      return process.port();
    }

    /** The JVM: the one process of the container running the image's {@code java}. */
    ProcessHandle jvm() {
      Optional<ProcessHandle> jvm =
          process
              .toHandle()
              .descendants()
              .filter(h -> h.info().command().map(c -> c.startsWith(root.toString())).orElse(false))
              .findFirst();
      return jvm.orElseThrow(() -> new AssertionError("no JVM in the container:\n" + output()));
    }

    /** The image's JVMs in the container, each after its parent. */
    List<ProcessHandle> jvms() {
      List<ProcessHandle> all =
          process
              .toHandle()
              .descendants()
              .filter(h -> h.info().command().map(c -> c.startsWith(root.toString())).orElse(false))
              .toList();
      List<ProcessHandle> ordered = new ArrayList<>();
      for (ProcessHandle h : all) {
        boolean childOfAnother =
            h.parent().map(p -> all.stream().anyMatch(o -> o.pid() == p.pid())).orElse(false);
        ordered.add(childOfAnother ? ordered.size() : 0, h);
      }
      return ordered;
    }

    int waitForExit() throws InterruptedException {
      return process
          .awaitExit(Duration.ofMinutes(2))
          .orElseThrow(() -> new AssertionError("did not exit after SIGTERM:\n" + output()));
    }

    String output() {
      return process.output();
    }

    void kill() {
      process.close();
    }
  }
}
