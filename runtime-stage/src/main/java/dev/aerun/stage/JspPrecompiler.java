package dev.aerun.stage;

import dev.aerun.appengine.descriptor.EeVersion;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Compiles an app's JSPs when it is staged, so that an instance of the image serves them without
 * compiling anything: Jasper's {@code JspC} of the app's EE version (the launcher's {@code
 * lib/eeN}, the Jasper, Eclipse compiler and JSTL the image runs) writes one servlet class per JSP
 * into {@code WEB-INF/classes/org/apache/jsp}, and {@code WEB-INF/web.xml} maps each JSP's path to
 * its class, ahead of Jetty's {@code *.jsp} mapping.
 *
 * <p>What runs: Jasper parses the JSPs and the tag library descriptors, loads the classes the JSPs
 * use (the app's tag handlers, beans and imports, which runs none of their code), and instantiates
 * and calls the app's tag library validators and tag extra-info classes, which are the app's code.
 * So it runs in a child JVM with an environment of {@code PATH} and {@code LANG} only (no {@code
 * GOOGLE_APPLICATION_CREDENTIALS}), in user, PID, network and mount namespaces of its own ({@code
 * unshare}: no network interface but a loopback that is down), chrooted into a tmpfs holding only
 * the system's libraries and the JDK (read-only), a few devices, its own {@code /proc}, the app and
 * the output folder, for at most ten minutes. Where that cannot be had, nothing is precompiled and
 * a note says why.
 *
 * <p>Reproducible: the app's files are dated at the epoch first (as the image's layers date them),
 * the compiler sees the app and its libraries at fixed paths ({@code /mnt/app}, {@code /mnt/lib},
 * which Jasper records in each class), one JSP after the other in path order, and the generated
 * Java sources are removed (they carry the time they were written); so the same app and launcher
 * give the same bytes.
 *
 * <p>A JSP that does not compile is left to compile on its first request, as without staging, and a
 * note names it with Jasper's {@code file:line: message}; staging goes on.
 */
public final class JspPrecompiler {
  /** What the app's files are dated, and what the image's layers record. */
  static final FileTime FILE_TIME = FileTime.from(Instant.EPOCH);

  /** Where the compiler sees the app and its libraries (a tmpfs in its own mount namespace). */
  static final String ROOT = "/mnt";

  /** Opens the mappings this class adds to {@code web.xml}. */
  static final String MARK = "<!-- aerun stage: the app's JSPs, compiled when it was staged -->";

  /** The package of the generated servlets, Jetty's default for precompiled JSPs. */
  static final String PACKAGE_DIR = "WEB-INF/classes/org/apache/jsp";

  private static final long TIMEOUT_SECONDS = 600;
  private static final Pattern URL_PATTERN =
      Pattern.compile("<(?:[\\w.-]+:)?url-pattern>\\s*([^<]*?)\\s*</(?:[\\w.-]+:)?url-pattern>");
  private static final Pattern MAPPING =
      Pattern.compile(
          "<servlet-mapping>\\s*<servlet-name>([^<]+)</servlet-name>\\s*"
              + "<url-pattern>([^<]+)</url-pattern>\\s*</servlet-mapping>");
  private static final Pattern WEB_APP_END = Pattern.compile("</([\\w.-]+:)?web-app\\s*>");
  private static final Pattern ENCODING =
      Pattern.compile("^<\\?xml[^>]*encoding=[\"']([\\w.-]+)[\"']");
  private static final Pattern JAVAC_ERROR =
      Pattern.compile(
          "An error occurred at line: \\[(\\d+)\\] in the jsp file: \\[([^\\]]+)\\]\\\\n(.*?)(\\\\n|$)");
  private static final Pattern PARSE_ERROR =
      Pattern.compile(
          "file:"
              + Pattern.quote(ROOT)
              + "/app(/\\S+) \\(line: \\[(\\d+)\\], column: \\[(\\d+)\\]\\) (.*?)(\\\\n|$)");

  private final Path lib;

  private JspPrecompiler(Path lib) {
    this.lib = lib;
  }

  /** Compiles with the JSP stack of {@code runtimeHome/lib} (the launcher's distribution). */
  public static JspPrecompiler beside(Path runtimeHome) {
    return new JspPrecompiler(runtimeHome == null ? null : runtimeHome.resolve("lib"));
  }

  /**
   * Compiles nothing ({@code --no-jsp-precompile}, or no launcher distribution to compile with).
   */
  public static JspPrecompiler none() {
    return new JspPrecompiler(null);
  }

  /**
   * Precompiles the JSPs of the exploded app {@code app} for {@code ee}, using {@code work} (an
   * empty folder of the stage's own) for the compiler's output; returns the notes for the person
   * staging. Leaves the app as it was, but for its files' dates, when nothing could be compiled.
   */
  public List<String> precompile(Path appDir, EeVersion ee, Path workDir) throws IOException {
    Path app = appDir.toAbsolutePath();
    Path work = workDir.toAbsolutePath();
    if (lib == null) {
      return List.of();
    }
    List<String> jsps = jspFiles(app);
    if (jsps.isEmpty()) {
      return List.of();
    }
    List<String> notes = new ArrayList<>();
    Path eeLib = lib.resolve(AppEngineStandard.eeFolder(ee));
    Path webXml = app.resolve("WEB-INF/web.xml");
    Path generated = app.resolve(PACKAGE_DIR);
    String descriptor =
        Files.isRegularFile(webXml) ? Files.readString(webXml, charset(webXml)) : "";
    if (!Files.isDirectory(eeLib)) {
      return skipped("no " + eeLib + " to compile them with");
    }
    if (Files.exists(generated, LinkOption.NOFOLLOW_LINKS)) {
      return skipped("the app has its own " + PACKAGE_DIR + " (JSPs compiled before)");
    }
    Matcher end = lastMatch(WEB_APP_END, descriptor);
    if (!descriptor.isEmpty() && (end == null || end.group(1) != null)) {
      return skipped("WEB-INF/web.xml has no </web-app> without a namespace prefix to add them to");
    }
    Set<String> mapped = new java.util.HashSet<>();
    for (Matcher m = URL_PATTERN.matcher(descriptor); m.find(); ) {
      mapped.add(m.group(1));
    }
    List<String> pages = new ArrayList<>();
    for (String jsp : jsps) {
      if (mapped.contains(jsp)) {
        notes.add(jsp + ": not precompiled, WEB-INF/web.xml maps its path itself");
      } else {
        pages.add(jsp);
      }
    }
    if (pages.isEmpty()) {
      return notes;
    }
    dateFiles(app);
    Files.createDirectories(work);
    Path log = work.resolve("jspc.log");
    List<String> command = command(app, work, eeLib, pages);
    Process process;
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(work.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().clear();
      builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
      builder.environment().put("LANG", "C.UTF-8");
      process = builder.start();
    } catch (IOException e) {
      return skipped("cannot start the compiler (" + e.getMessage() + ")");
    }
    boolean ended;
    try {
      ended = process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ended = false;
    }
    if (!ended) {
      process.destroyForcibly();
      Stage.deleteTree(generated);
      return skipped("the compiler did not finish in " + TIMEOUT_SECONDS + " s");
    }
    List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
    Path include = work.resolve("jspc-web.xml");
    if (process.exitValue() != 0 || !Files.isRegularFile(include)) {
      Stage.deleteTree(generated);
      String last = output.isEmpty() ? "exit " + process.exitValue() : output.get(0);
      return skipped(
          "the compiler, in namespaces of its own without network, failed (" + last + ")");
    }
    Map<String, String> servlets = new TreeMap<>(); // path -> servlet class, in path order
    for (Matcher m = MAPPING.matcher(Files.readString(include)); m.find(); ) {
      servlets.put(m.group(2).strip(), m.group(1).strip());
    }
    List<String> errors =
        output.stream()
            .filter(l -> l.startsWith(JspcMain.ERROR_PREFIX))
            .map(l -> l.substring(JspcMain.ERROR_PREFIX.length()))
            .toList();
    for (String page : pages) {
      if (!servlets.containsKey(page)) {
        notes.add(failure(page, errors) + "; not precompiled: it compiles on its first request");
      }
    }
    removeSources(generated);
    if (!servlets.isEmpty()) {
      writeMappings(webXml, descriptor, end, servlets, ee);
    }
    dateFiles(app);
    return notes;
  }

  private static List<String> skipped(String why) {
    return List.of("JSPs not precompiled: " + why + "; they compile on their first request");
  }

  /** The app's {@code .jsp} and {@code .jspx} files, as context paths, sorted. */
  static List<String> jspFiles(Path app) throws IOException {
    try (Stream<Path> walk = Files.walk(app)) {
      return walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
          .map(p -> "/" + app.relativize(p).toString().replace('\\', '/'))
          .filter(p -> p.endsWith(".jsp") || p.endsWith(".jspx"))
          .sorted()
          .toList();
    }
  }

  /**
   * {@code unshare} (user, PID, network and mount namespaces: no network but a loopback that is
   * down), a tmpfs root with the system's libraries and the JDK read-only and, under {@link #ROOT},
   * the app, the compiler's output folder and a copy of the libraries dated at the epoch; then,
   * chrooted there, the JVM of this stage running {@link JspcMain}.
   */
  private List<String> command(Path app, Path work, Path eeLib, List<String> pages)
      throws IOException {
    List<Path> classPath = new ArrayList<>();
    try (Stream<Path> jars = Files.list(eeLib)) {
      jars.filter(p -> p.getFileName().toString().endsWith(".jar"))
          .sorted()
          .forEach(classPath::add);
    }
    try (Stream<Path> jars = Files.list(lib)) {
      // Jetty's Jasper logs through SLF4J.
      jars.filter(p -> p.getFileName().toString().startsWith("slf4j-"))
          .sorted()
          .forEach(classPath::add);
    }
    classPath.add(location(JspcMain.class.getName()));
    classPath.add(location("org.apache.tools.ant.Task")); // JspC is an Ant task
    // A root of its own: the system's libraries and the JDK read-only, the app and the output
    // folder, a copy of the libraries; nothing else of this machine (no home folder, no /etc).
    String script =
        String.join(
            "\n",
            "set -e",
            "jail=$1/.jspc-root; mkdir \"$jail\"",
            "mount -t tmpfs -o mode=0755 aerun-jspc \"$jail\"",
            "ro_bind() { mkdir -p \"$jail$1\"; mount --bind \"$1\" \"$jail$1\";"
                + " mount -o remount,bind,ro \"$jail$1\"; }",
            "for d in /usr /lib /lib32 /lib64 /libx32 /bin /sbin; do",
            "  if [ -L $d ]; then ln -s \"$(readlink $d)\" \"$jail$d\";"
                + " elif [ -d $d ]; then ro_bind $d; fi",
            "done",
            "case $4 in /usr/*) ;; *) ro_bind \"$4\" ;; esac",
            // What the JDK links to outside itself (Debian's /etc/java-NN-openjdk configuration).
            "for t in $(find \"$4\" -type l -exec readlink -f {} + | sed 's|/[^/]*$||' | sort -u); do",
            "  case $t in /usr/*|\"$4\"/*) ;; *) [ ! -d \"$t\" ] || [ -d \"$jail$t\" ] || ro_bind \"$t\" ;; esac",
            "done",
            "mkdir -p \"$jail/etc\" \"$jail/dev\" \"$jail/proc\" \"$jail" + ROOT + "/tmp\"",
            "[ ! -f /etc/ld.so.cache ] || { touch \"$jail/etc/ld.so.cache\";"
                + " mount --bind /etc/ld.so.cache \"$jail/etc/ld.so.cache\"; }",
            "for n in null zero random urandom; do",
            "  touch \"$jail/dev/$n\"; mount --bind /dev/$n \"$jail/dev/$n\"",
            "done",
            "mount -t proc proc \"$jail/proc\"",
            "mkdir \"$jail" + ROOT + "/app\" \"$jail" + ROOT + "/out\" \"$jail" + ROOT + "/lib\"",
            "mount --bind \"$2\" \"$jail" + ROOT + "/app\"",
            "mount --bind \"$1\" \"$jail" + ROOT + "/out\"",
            "java=$3; shift 4; n=0; cp=",
            "while [ \"$1\" != -- ]; do",
            "  n=$((n + 1)); to=" + ROOT + "/lib/$n-${1##*/}",
            "  cp -R \"$1\" \"$jail$to\"; cp=$cp${cp:+:}$to; shift",
            "done; shift",
            "find \"$jail" + ROOT + "/lib\" -exec touch -h -d @0 {} +",
            "exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 chroot \"$jail\" \"$java\""
                + " -Djava.io.tmpdir="
                + ROOT
                + "/tmp -Dfile.encoding=UTF-8"
                + " -Duser.language=en -Duser.country=US -Duser.timezone=UTC"
                + " -XX:TieredStopAtLevel=1 -cp \"$cp\" "
                + JspcMain.class.getName()
                + " \"$@\"");
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            "unshare",
            "--user",
            "--map-root-user",
            "--net",
            "--mount",
            "--pid",
            "--fork",
            "--kill-child",
            "sh",
            "-c",
            script,
            "sh",
            work.toString(),
            app.toString(),
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            Path.of(System.getProperty("java.home")).toString()));
    classPath.forEach(p -> command.add(p.toString()));
    command.add("--");
    command.addAll(
        List.of(
            "-webapp",
            ROOT + "/app",
            "-d",
            ROOT + "/app/WEB-INF/classes",
            "-p",
            "org.apache.jsp",
            "-compile",
            "-source",
            "17",
            "-target",
            "17",
            "-javaEncoding",
            "UTF-8",
            "-threadCount",
            "1",
            "-webinc",
            ROOT + "/out/jspc-web.xml"));
    pages.forEach(p -> command.add(p.substring(1)));
    return command;
  }

  /** The jar or folder a class of this stage's class loader comes from. */
  private static Path location(String className) throws IOException {
    try {
      Class<?> c = Class.forName(className, false, JspPrecompiler.class.getClassLoader());
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (ClassNotFoundException | URISyntaxException | NullPointerException e) {
      throw new IOException("cannot find " + className + " beside the stage command", e);
    }
  }

  /** The JSP's {@code file:line: message} from Jasper's error lines, else what is known. */
  static String failure(String page, List<String> errors) {
    for (String error : errors) {
      Matcher javac = JAVAC_ERROR.matcher(error);
      if (javac.find() && javac.group(2).equals(page)) {
        return page + ":" + javac.group(1) + ": " + javac.group(3);
      }
      Matcher parse = PARSE_ERROR.matcher(error);
      if (parse.find() && parse.group(1).equals(page)) {
        return page + ":" + parse.group(2) + ":" + parse.group(3) + ": " + parse.group(4);
      }
    }
    for (String error : errors) {
      if (error.contains("[" + page + "]") || error.contains(ROOT + "/app" + page)) {
        String message =
            error
                .replace("\\n", " ")
                .replaceAll("</?(h3|p)>", " ") // Jasper's validation messages come as HTML
                .replaceAll("\\s+", " ")
                .strip();
        return page + ": " + (message.length() > 400 ? message.substring(0, 400) + "…" : message);
      }
    }
    return page + ": did not compile";
  }

  /** Adds the servlets and their mappings before {@code </web-app>}, or writes a web.xml. */
  private static void writeMappings(
      Path webXml, String descriptor, Matcher end, Map<String, String> servlets, EeVersion ee)
      throws IOException {
    Map<String, String> byClass = new LinkedHashMap<>();
    servlets.forEach((path, servlet) -> byClass.putIfAbsent(servlet, path));
    StringBuilder s = new StringBuilder("\n  ").append(MARK).append('\n');
    for (String servlet : byClass.keySet()) {
      s.append("  <servlet>\n    <servlet-name>")
          .append(servlet)
          .append("</servlet-name>\n    <servlet-class>")
          .append(servlet)
          .append("</servlet-class>\n  </servlet>\n");
    }
    servlets.forEach(
        (path, servlet) ->
            s.append("  <servlet-mapping>\n    <servlet-name>")
                .append(servlet)
                .append("</servlet-name>\n    <url-pattern>")
                .append(path)
                .append("</url-pattern>\n  </servlet-mapping>\n"));
    if (descriptor.isEmpty()) {
      Files.createDirectories(webXml.getParent());
      Files.writeString(webXml, newWebXml(ee, s.toString()), StandardCharsets.UTF_8);
    } else {
      String text = descriptor.substring(0, end.start()) + s + descriptor.substring(end.start());
      Files.writeString(webXml, text, charset(webXml));
    }
  }

  /** A web.xml of {@code ee}'s version with nothing but {@code body}: like none, annotations on. */
  private static String newWebXml(EeVersion ee, String body) {
    String namespace =
        ee == EeVersion.EE8
            ? "http://xmlns.jcp.org/xml/ns/javaee"
            : "https://jakarta.ee/xml/ns/jakartaee";
    String version =
        switch (ee) {
          case EE8 -> "4.0";
          case EE10 -> "6.0";
          case EE11 -> "6.1";
        };
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<web-app xmlns=\""
        + namespace
        + "\" version=\""
        + version
        + "\">"
        + body
        + "</web-app>\n";
  }

  private static Charset charset(Path webXml) throws IOException {
    if (!Files.isRegularFile(webXml)) {
      return StandardCharsets.UTF_8;
    }
    byte[] head = new byte[Math.min(200, (int) Files.size(webXml))];
    try (var in = Files.newInputStream(webXml)) {
      head = in.readNBytes(head.length);
    }
    Matcher m = ENCODING.matcher(new String(head, StandardCharsets.ISO_8859_1));
    try {
      return m.find() ? Charset.forName(m.group(1)) : StandardCharsets.UTF_8;
    } catch (IllegalArgumentException e) {
      return StandardCharsets.UTF_8;
    }
  }

  private static Matcher lastMatch(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    Matcher last = null;
    while (m.find()) {
      last = pattern.matcher(text);
      last.find(m.start());
    }
    return last;
  }

  /** The generated Java sources go: the classes are what is served, the sources carry a date. */
  private static void removeSources(Path generated) throws IOException {
    if (!Files.isDirectory(generated)) {
      return;
    }
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(generated)) {
      sources = walk.filter(p -> p.toString().endsWith(".java")).toList();
    }
    for (Path p : sources) {
      Files.delete(p);
    }
  }

  /** Dates every file and folder of the app at the epoch (links are left as they are). */
  static void dateFiles(Path app) throws IOException {
    List<Path> all;
    try (Stream<Path> walk = Files.walk(app)) {
      all = walk.filter(p -> !Files.isSymbolicLink(p)).collect(Collectors.toList());
    }
    for (Path p : all) {
      Files.setLastModifiedTime(p, FILE_TIME);
    }
  }
}
