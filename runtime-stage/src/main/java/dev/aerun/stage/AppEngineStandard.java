package dev.aerun.stage;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import dev.aerun.appengine.descriptor.DescriptorException;
import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.appengine.descriptor.SelectionException;
import dev.aerun.appengine.descriptor.SelectionInput;
import dev.aerun.appengine.descriptor.ServingMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * {@code stage --target appengine-standard APP OUT}: writes into {@code OUT} an app directory that
 * App Engine standard (java17, java21, java25) deploys and starts with this runtime.
 *
 * <p>{@code OUT} is the app as it is (a {@code .war} exploded, a directory copied, by the rules
 * every target applies to its input), plus this runtime's launcher and the jars its serving mode
 * and EE version need in {@value #RUNTIME_DIR} (inside {@code WEB-INF}, so never served as a static
 * file), and its {@code WEB-INF/appengine-web.xml} with every setting kept and an {@code
 * <entrypoint>} that starts the launcher on the app with the mode and EE version the descriptor
 * chooses on that Java runtime. On the platform the runtime sees {@code GAE_ENV=standard}: it
 * serves on {@code $PORT}, believes the platform's front end, and sends the bundled services' calls
 * to the platform's API host with the request's ticket. Nothing is fetched from a network: the jars
 * are the ones beside the launcher that runs {@code stage}.
 *
 * <p>{@code OUT} must be new, empty, or an earlier output of this target (which is replaced); it is
 * written next to itself first and moved into place at the end, so a failure leaves nothing
 * half-staged.
 */
public final class AppEngineStandard {
  /** Where the runtime goes inside the staged app. */
  static final String RUNTIME_DIR = "WEB-INF/aerun";

  /** The file that marks a folder this target wrote (so that staging again may replace it). */
  static final String MARKER = RUNTIME_DIR + "/STAGED-FOR-APPENGINE-STANDARD";

  /** The JVM options of the entrypoint: as the runtime images start the runtime. */
  static final String JVM_OPTIONS = "-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError";

  private static final String DESCRIPTOR = "WEB-INF/appengine-web.xml";

  private AppEngineStandard() {}

  /**
   * What was staged.
   *
   * @param runtime the App Engine runtime the staged descriptor names
   * @param selection the serving mode and EE version the entrypoint starts
   * @param entrypoint the {@code <entrypoint>} written
   * @param notes what was changed or assumed, for the person staging
   */
  public record Staged(
      String name,
      String runtime,
      RuntimeSelection selection,
      String entrypoint,
      List<String> notes) {}

  /**
   * Stages {@code app} into {@code outDir} with the runtime of {@code runtimeHome} (the folder of
   * {@code runtime-main.jar} and its {@code lib/}).
   *
   * @throws StageException when the app, the folder or the runtime cannot be staged, saying why
   */
  public static Staged stage(Path app, Path outDir, Path runtimeHome)
      throws StageException, IOException {
    return stage(app, outDir, runtimeHome, true);
  }

  /**
   * Stages {@code app} into {@code outDir}; with {@code precompileJsps}, its JSPs compiled by the
   * runtime's Jasper ({@link JspPrecompiler}) unless its descriptor turns precompilation off.
   */
  public static Staged stage(Path app, Path outDir, Path runtimeHome, boolean precompileJsps)
      throws StageException, IOException {
    Path source = app.toAbsolutePath().normalize();
    Path out = outDir.toAbsolutePath().normalize();
    if (!Files.exists(source)) {
      throw new StageException(source + ": no such app (expected a .war or an app directory)");
    }
    if (out.startsWith(source) || source.startsWith(out)) {
      throw new StageException(
          out + ": the output folder and the app " + source + " must not contain each other");
    }
    checkOutput(out);
    Path home = runtimeHome(runtimeHome);
    Path parent = out.getParent();
    Files.createDirectories(parent);
    Path work = Files.createTempDirectory(parent, "." + out.getFileName() + ".staging-");
    try {
      JspPrecompiler jsps = precompileJsps ? JspPrecompiler.beside(home) : JspPrecompiler.none();
      Staged staged = stageInto(source, work, home, jsps);
      if (Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
        deleteTree(out);
      }
      Files.move(work, out, StandardCopyOption.ATOMIC_MOVE);
      return staged;
    } finally {
      deleteTree(work);
    }
  }

  /** Refuses an output folder that holds something else than an earlier output of this target. */
  private static void checkOutput(Path out) throws StageException, IOException {
    if (!Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    if (Files.isSymbolicLink(out) || !Files.isDirectory(out)) {
      throw new StageException(out + ": the output folder is not a directory");
    }
    try (Stream<Path> entries = Files.list(out)) {
      if (entries.findAny().isPresent() && !Files.isRegularFile(out.resolve(MARKER))) {
        throw new StageException(
            out
                + ": the output folder is not empty and holds no earlier App Engine standard"
                + " staging; name a new or empty folder");
      }
    }
  }

  private static Path runtimeHome(Path home) throws StageException {
    if (home == null
        || !Files.isRegularFile(home.resolve("runtime-main.jar"))
        || !Files.isDirectory(home.resolve("lib"))) {
      throw new StageException(
          "--target appengine-standard copies the runtime into the app: run stage from the"
              + " launcher's distribution (runtime-main.jar with its lib/)");
    }
    return home;
  }

  private static Staged stageInto(Path source, Path work, Path home, JspPrecompiler jsps)
      throws StageException, IOException {
    if (Files.isDirectory(source)) {
      Stage.copyTree(source, work);
    } else {
      Stage.unzip(source, work);
    }
    Path descriptorFile = work.resolve(DESCRIPTOR);
    if (!Files.isRegularFile(descriptorFile)) {
      throw new StageException(source + ": no " + DESCRIPTOR + " in this app");
    }
    if (Files.exists(work.resolve(RUNTIME_DIR), LinkOption.NOFOLLOW_LINKS)) {
      throw new StageException(
          source + ": the app has a " + RUNTIME_DIR + " of its own, where the runtime would go");
    }
    byte[] xml = Files.readAllBytes(descriptorFile);
    AppEngineWebXml descriptor;
    try (InputStream in = new java.io.ByteArrayInputStream(xml)) {
      descriptor = AppEngineWebXmlParser.parse(in, source.getFileName() + "!/" + DESCRIPTOR);
    } catch (DescriptorException e) {
      throw new StageException(e.getMessage());
    }
    // The rules every target applies to the descriptor (its notes are the other targets').
    DeploymentPlan plan = DeploymentPlan.from(descriptor, source.getFileName().toString());
    List<String> notes = new ArrayList<>();
    String runtime = plan.javaRuntime();
    String given = descriptor.runtime().orElse("");
    if (!given.equals(runtime)) {
      notes.add(
          (given.isEmpty() ? "no <runtime>" : "<runtime>" + given + "</runtime>")
              + ": staged for "
              + runtime
              + ", the oldest Java runtime App Engine standard starts an <entrypoint> on");
    }
    RuntimeSelection selection;
    try {
      selection =
          RuntimeSelection.resolve(
              SelectionInput.of(descriptor)
                  .withGaeRuntime(runtime)
                  .withJvmFeatureVersion(Integer.parseInt(runtime.substring("java".length()))));
    } catch (SelectionException e) {
      throw new StageException(source.getFileName() + "!/" + DESCRIPTOR + ": " + e.getMessage());
    }
    notes.addAll(selection.warnings());
    if (descriptor.entrypoint().isPresent()) {
      notes.add("the app's <entrypoint> is replaced by the one that starts this runtime");
    }
    if (descriptor.precompilationEnabled()) {
      // The compiler's own files (its log, its mappings) beside the folder, never in it.
      Path jspc = Files.createTempDirectory(work.getParent(), ".jspc-");
      try {
        notes.addAll(jsps.precompile(work, selection.ee(), jspc.resolve("jspc")));
      } finally {
        deleteTree(jspc);
      }
    }
    copyRuntime(home, work.resolve(RUNTIME_DIR), selection);
    String entrypoint = entrypoint(selection);
    Files.write(descriptorFile, withEntrypoint(xml, runtime, entrypoint));
    Files.writeString(
        work.resolve(MARKER),
        "Staged for App Engine standard by aerun stage; staging again replaces this folder.\n",
        StandardCharsets.UTF_8);
    return new Staged(plan.name(), runtime, selection, entrypoint, notes);
  }

  /** The command App Engine runs in the app's folder: the launcher on the app ({@code .}). */
  static String entrypoint(RuntimeSelection selection) {
    return "java "
        + JVM_OPTIONS
        + " -jar "
        + RUNTIME_DIR
        + "/runtime-main.jar --log-format json --mode "
        + (selection.mode() == ServingMode.LEGACY_RPC ? "legacy" : "http")
        + " --ee "
        + eeFolder(selection.ee())
        + " .";
  }

  static String eeFolder(EeVersion ee) {
    return switch (ee) {
      case EE8 -> "ee8";
      case EE10 -> "ee10";
      case EE11 -> "ee11";
    };
  }

  /**
   * Copies what the runtime needs to serve in {@code selection}'s mode and EE version: the
   * launcher, {@code lib/}'s own jars (and its start-up class list), {@code lib/eeN} of the EE
   * version, and {@code lib/legacy} for legacy RPC mode only. The local API host ({@code
   * lib/apihost}), staging ({@code lib/stage}) and the other EE versions stay out.
   */
  private static void copyRuntime(Path home, Path target, RuntimeSelection selection)
      throws IOException {
    Path lib = home.resolve("lib");
    Files.createDirectories(target.resolve("lib"));
    Files.copy(home.resolve("runtime-main.jar"), target.resolve("runtime-main.jar"));
    try (Stream<Path> files = Files.list(lib)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (Files.isRegularFile(file) && (name.endsWith(".jar") || name.endsWith(".txt"))) {
          Files.copy(file, target.resolve("lib").resolve(name));
        }
      }
    }
    List<String> folders = new ArrayList<>(List.of(eeFolder(selection.ee())));
    if (selection.mode() == ServingMode.LEGACY_RPC) {
      folders.add("legacy");
    }
    for (String folder : folders) {
      Path from = lib.resolve(folder);
      if (!Files.isDirectory(from)) {
        throw new IOException("the runtime has no lib/" + folder + " in " + home);
      }
      try (Stream<Path> tree = Files.walk(from)) {
        for (Path p : tree.sorted().toList()) {
          Path to = target.resolve("lib").resolve(folder).resolve(from.relativize(p).toString());
          if (Files.isDirectory(p)) {
            Files.createDirectories(to);
          } else if (Files.isRegularFile(p)) {
            Files.copy(p, to);
          }
        }
      }
    }
  }

  /**
   * The descriptor with {@code <runtime>} set to {@code runtime} and its {@code <entrypoint>} the
   * given one (an earlier one removed); every other element, attribute and comment as it was.
   */
  static byte[] withEntrypoint(byte[] xml, String runtime, String entrypoint)
      throws StageException {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      factory.setExpandEntityReferences(false);
      factory.setXIncludeAware(false);
      Document document = factory.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(xml));
      Element root = document.getDocumentElement();
      String namespace = root.getNamespaceURI();
      String prefix = root.getPrefix() == null ? "" : root.getPrefix() + ":";
      Element runtimeElement = null;
      for (Node n = root.getFirstChild(); n != null; ) {
        Node next = n.getNextSibling();
        if (n instanceof Element e && "entrypoint".equals(e.getLocalName())) {
          removeWithIndent(root, e);
        } else if (n instanceof Element e && "runtime".equals(e.getLocalName())) {
          runtimeElement = e;
        }
        n = next;
      }
      if (runtimeElement == null) {
        runtimeElement = document.createElementNS(namespace, prefix + "runtime");
        append(root, runtimeElement);
      }
      runtimeElement.setTextContent(runtime);
      Element entry = document.createElementNS(namespace, prefix + "entrypoint");
      entry.setTextContent(entrypoint);
      append(root, entry);
      Transformer transformer = TransformerFactory.newInstance().newTransformer();
      transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      transformer.setOutputProperty(OutputKeys.INDENT, "no");
      ByteArrayOutputStream written = new ByteArrayOutputStream();
      transformer.transform(new DOMSource(document), new StreamResult(written));
      return written.toByteArray();
    } catch (Exception e) {
      throw new StageException(DESCRIPTOR + " cannot be rewritten with its <entrypoint>: " + e);
    }
  }

  /** Appends {@code element} as the root's last child, on a line of its own. */
  private static void append(Element root, Element element) {
    Document document = root.getOwnerDocument();
    Node last = root.getLastChild();
    if (last != null && last.getNodeType() == Node.TEXT_NODE && last.getTextContent().isBlank()) {
      root.insertBefore(document.createTextNode("\n  "), last);
      root.insertBefore(element, last);
    } else {
      root.appendChild(document.createTextNode("\n  "));
      root.appendChild(element);
      root.appendChild(document.createTextNode("\n"));
    }
  }

  private static void removeWithIndent(Element root, Element element) {
    Node before = element.getPreviousSibling();
    if (before != null
        && before.getNodeType() == Node.TEXT_NODE
        && before.getTextContent().isBlank()) {
      root.removeChild(before);
    }
    root.removeChild(element);
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> tree = Files.walk(root)) {
      for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
