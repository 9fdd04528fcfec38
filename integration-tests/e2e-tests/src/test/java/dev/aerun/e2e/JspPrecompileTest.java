package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.AppCopies;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code stage} compiles the app's JSPs with the runtime's own Jasper (docs/DEPLOY.md): the JSP
 * sample of each EE version, staged by the real launcher with {@code --target appengine-standard}
 * (a folder the runtime serves as it is: the containers target runs the same compiler on its copy
 * of the app, which {@code ImageRunTest} starts as an image), then served from the folder. The JSP
 * answers as it does unstaged, and the runtime compiled nothing: Jasper's scratch folder, in the
 * {@code --temp-dir} given, holds no source or class of it, where the unstaged app's has both.
 */
class JspPrecompileTest {
  private static final Pattern SELECTION = Pattern.compile("--mode (\\S+) --ee (\\S+) \\.");

  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  @TempDir Path dir;

  /** Runs the launcher's {@code stage}; returns its output, after checking it succeeded. */
  private static String stage(Path app, Path out, String... options) throws Exception {
    return stage(app, out, java.util.Map.of(), options);
  }

  /** {@link #stage(Path, Path, String...)} with more variables in stage's environment. */
  private static String stage(
      Path app, Path out, java.util.Map<String, String> environment, String... options)
      throws Exception {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                RuntimeProcess.runtimeJar().toString(),
                "stage",
                "--target",
                "appengine-standard"));
    command.addAll(List.of(options));
    command.addAll(List.of(app.toString(), out.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process stage = builder.start();
    String output = new String(stage.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(stage.waitFor(300, TimeUnit.SECONDS), output);
    assertEquals(0, stage.exitValue(), output);
    return output;
  }

  /** Serves {@code app} as the staged entrypoint would; returns the JSP's answer and its files. */
  private static Served serve(Path app, String stageOutput, Path temp) throws Exception {
    Matcher m = SELECTION.matcher(stageOutput);
    assertTrue(m.find(), stageOutput);
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(app)
                .args(
                    "--log-format",
                    "text",
                    "--mode",
                    m.group(1),
                    "--ee",
                    m.group(2),
                    "--temp-dir",
                    temp.toString()));
    try {
      HttpResponse<String> jsp = Http.get(runtime.uri("/jstl.jsp?name=World"));
      List<String> compiled;
      try (Stream<Path> files = Files.walk(temp)) {
        compiled =
            files
                .map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("jstl_jsp"))
                .toList();
      }
      return new Served(jsp.statusCode(), jsp.body(), compiled, runtime.output());
    } finally {
      runtime.stop();
    }
  }

  private record Served(int status, String body, List<String> compiledByRuntime, String log) {}

  @ParameterizedTest
  @CsvSource({
    "sample-ee8-app.war, ee8, JSP on EE8",
    "sample-ee10-app.war, ee10, JSP on EE10",
    "sample-ee11-app.war, ee11, JSP on EE11"
  })
  void stagedJsp_isServedPrecompiled_asUnstaged_andStagingTwiceGivesTheSameBytes(
      String war, String ee, String text) throws Exception {
    Path app = withTagFile(AppCopies.explode(RuntimeProcess.app(war), dir.resolve("app")));
    Path first = dir.resolve("first");
    String output = stage(app, first);
    assertTrue(output.contains("--ee " + ee + " ."), output);
    assertFalse(output.contains("note: JSPs not precompiled"), output);
    Path classes = first.resolve("WEB-INF/classes/org/apache/jsp");
    assertTrue(Files.isRegularFile(classes.resolve("jstl_jsp.class")), output);
    assertTrue(Files.isRegularFile(classes.resolve("tagged_jsp.class")), output);
    assertFalse(Files.exists(classes.resolve("jstl_jsp.java")), "the generated source is removed");
    String webXml = Files.readString(first.resolve("WEB-INF/web.xml"));
    assertTrue(webXml.contains("<url-pattern>/jstl.jsp</url-pattern>"), webXml);

    // The same app staged again, from another folder into another: the same bytes, file by file.
    Path appAgain =
        withTagFile(AppCopies.explode(RuntimeProcess.app(war), dir.resolve("elsewhere/app")));
    Path second = dir.resolve("elsewhere/second");
    stage(appAgain, second);
    List<Path> files = files(first);
    assertEquals(files, files(second));
    for (Path file : files) {
      assertArrayEquals(
          Files.readAllBytes(first.resolve(file)),
          Files.readAllBytes(second.resolve(file)),
          file + " differs between two stagings of the same app");
    }

    Served unstaged = serve(app, output, Files.createDirectories(dir.resolve("temp-unstaged")));
    Served staged = serve(first, output, Files.createDirectories(dir.resolve("temp-staged")));
    assertEquals(200, unstaged.status(), unstaged.log());
    assertTrue(unstaged.body().startsWith(text + ": 1,2,3, name=World"), unstaged.body());
    assertEquals(200, staged.status(), staged.log());
    assertEquals(unstaged.body(), staged.body());
    // The observation can fail: the unstaged app's JSP was compiled into the scratch folder.
    assertTrue(
        unstaged.compiledByRuntime().containsAll(List.of("jstl_jsp.java", "jstl_jsp.class")),
        unstaged.compiledByRuntime().toString());
    assertEquals(List.of(), staged.compiledByRuntime(), "the runtime compiled no JSP");
  }

  @Test
  void aJspThatDoesNotCompile_isNamedWithItsLine_andLeftToCompileOnItsFirstRequest()
      throws Exception {
    Path app = AppCopies.explode(RuntimeProcess.app("sample-ee10-app.war"), dir.resolve("app"));
    Files.writeString(
        app.resolve("broken.jsp"),
        "<%@ page contentType=\"text/plain\" %>\nfine so far\n<% int x = \"text\"; %>\n");
    Path out = dir.resolve("staged");
    String output = stage(app, out);
    assertTrue(
        output.contains(
            "note: /broken.jsp:3: Type mismatch: cannot convert from String to int; not"
                + " precompiled: it compiles on its first request"),
        output);
    assertTrue(Files.isRegularFile(out.resolve("WEB-INF/classes/org/apache/jsp/jstl_jsp.class")));
    assertFalse(Files.exists(out.resolve("WEB-INF/classes/org/apache/jsp/broken_jsp.class")));
    String webXml = Files.readString(out.resolve("WEB-INF/web.xml"));
    assertFalse(webXml.contains("/broken.jsp"), webXml);
  }

  /**
   * The app's code that compiling a JSP runs (a tag library validator: Jasper instantiates and
   * calls it) reaches no network, no file of this machine outside the app and the JDK, and no
   * environment variable of the stage command's: a validator reports what it could reach as its
   * validation message, which stage's note carries.
   */
  @Test
  void appCodeThatCompilingRuns_reachesNoNetwork_noFileOfTheMachine_andNoEnvironment()
      throws Exception {
    Path app = AppCopies.explode(RuntimeProcess.app("sample-ee10-app.war"), dir.resolve("app"));
    Path secret = Files.writeString(dir.resolve("credentials.json"), "{\"private_key\": \"x\"}");
    try (java.net.ServerSocket listener =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      String probe =
          "package probe;\n"
              + "import jakarta.servlet.jsp.tagext.*;\n"
              + "public class Probe extends TagLibraryValidator {\n"
              + "  public ValidationMessage[] validate(String prefix, String uri, PageData page) {\n"
              + "    String network;\n"
              + "    try (java.net.Socket s = new java.net.Socket()) {\n"
              + "      s.connect(new java.net.InetSocketAddress(\"127.0.0.1\", "
              + listener.getLocalPort()
              + "), 2000);\n"
              + "      network = \"reached\";\n"
              + "    } catch (Exception e) { network = \"unreachable\"; }\n"
              + "    boolean secret = java.nio.file.Files.isReadable(java.nio.file.Path.of(\""
              + secret
              + "\"));\n"
              + "    return new ValidationMessage[] {new ValidationMessage(null, \"network: \" + network"
              + " + \", secret: \" + (secret ? \"readable\" : \"unreadable\") + \", environment: \""
              + " + new java.util.TreeSet<>(System.getenv().keySet()))};\n"
              + "  }\n"
              + "}\n";
      Path source = Files.createDirectories(dir.resolve("probe-src/probe")).resolve("Probe.java");
      Files.writeString(source, probe);
      Path jspApi;
      try (Stream<Path> jars = Files.list(RuntimeProcess.runtimeJar().resolveSibling("lib/ee10"))) {
        jspApi =
            jars.filter(j -> j.getFileName().toString().startsWith("jakarta.servlet.jsp-api"))
                .findFirst()
                .orElseThrow();
      }
      int javac =
          javax.tools.ToolProvider.getSystemJavaCompiler()
              .run(
                  null,
                  null,
                  null,
                  "--release",
                  "17",
                  "-cp",
                  jspApi.toString(),
                  "-d",
                  app.resolve("WEB-INF/classes").toString(),
                  source.toString());
      assertEquals(0, javac);
      Files.writeString(
          app.resolve("WEB-INF/probe.tld"),
          "<taglib xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"3.0\">"
              + "<tlib-version>1.0</tlib-version><short-name>p</short-name>"
              + "<validator><validator-class>probe.Probe</validator-class></validator></taglib>");
      Files.writeString(
          app.resolve("probe.jsp"), "<%@ taglib prefix=\"p\" uri=\"/WEB-INF/probe.tld\" %>probe");

      Path out = dir.resolve("staged");
      String output =
          stage(app, out, java.util.Map.of("GOOGLE_APPLICATION_CREDENTIALS", secret.toString()));
      assertTrue(
          output.contains("network: unreachable, secret: unreadable, environment: [LANG, PATH]"),
          output);
      // The validator's message fails that JSP only: the others are precompiled.
      assertTrue(
          output.contains("note: /probe.jsp: Validation error messages from TagLibraryValidator"),
          output);
      assertTrue(Files.isRegularFile(out.resolve("WEB-INF/classes/org/apache/jsp/jstl_jsp.class")));
    }
  }

  @Test
  void noJspPrecompile_leavesTheAppAsItIs() throws Exception {
    Path app = AppCopies.explode(RuntimeProcess.app("sample-ee10-app.war"), dir.resolve("app"));
    Path out = dir.resolve("staged");
    stage(app, out, "--no-jsp-precompile");
    assertFalse(Files.exists(out.resolve("WEB-INF/classes/org/apache")));
    assertEquals(
        Files.readString(app.resolve("WEB-INF/web.xml")),
        Files.readString(out.resolve("WEB-INF/web.xml")));
  }

  /**
   * A JSP using a tag file of the app, both written now: Jasper records a tag file's date in the
   * JSP's class, so two copies written at different times compile alike only if stage dates them.
   */
  private static Path withTagFile(Path app) throws Exception {
    Files.createDirectories(app.resolve("WEB-INF/tags"));
    Files.writeString(app.resolve("WEB-INF/tags/greeting.tag"), "Hello, tag file");
    Files.writeString(
        app.resolve("tagged.jsp"),
        "<%@ taglib prefix=\"t\" tagdir=\"/WEB-INF/tags\" %><t:greeting/>");
    Thread.sleep(1100); // the next copy's files are dated at least a second later
    return app;
  }

  private static List<Path> files(Path root) throws Exception {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).map(root::relativize).sorted().toList();
    }
  }
}
