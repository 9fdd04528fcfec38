package dev.aerun.stage;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import dev.aerun.appengine.descriptor.DescriptorException;
import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.appengine.descriptor.RuntimeSelection;
import dev.aerun.appengine.descriptor.SelectionException;
import dev.aerun.appengine.descriptor.SelectionInput;
import dev.aerun.stage.oci.Layer;
import dev.aerun.stage.oci.OciImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * {@code stage [--target containers] [--image-repo REPO] [--base DIR] <app.war|dir> <out-dir>}:
 * turns an app into what a platform deploys, with no network ({@code --target appengine-standard}
 * writes an App Engine standard app folder instead: {@link AppEngineStandard}).
 *
 * <p>{@code out-dir} receives {@code image.tar} (the runtime image of the app's Java runtime plus
 * one layer holding the app at {@code /app}, with its {@code <env-variables>} in the image config),
 * {@code service.yaml} (Cloud Run), {@code kubernetes.yaml} (GKE), {@code app.yaml} and {@code
 * Dockerfile} (App Engine flexible, built from {@code app/}, the exploded app). The manifests name
 * the image as {@code REPO@sha256:<digest>}. The runtime images ({@code java17.tar} ...) are read
 * from {@code --base}, else from the {@code images} folder beside the launcher or the local Maven
 * repository ({@link RuntimeImages}).
 *
 * <p>Runs in its own class loader, started by the launcher's {@code stage} subcommand; the launcher
 * calls {@link #run(String[], Path, PrintStream, PrintStream)}.
 */
public final class Stage {
  static final String USAGE =
      "usage: java -jar runtime-main.jar stage [--target containers|appengine-standard]"
          + " [--image-repo REPO] [--base DIR] [--http2] [--no-jsp-precompile]"
          + " <app.war|dir> <out-dir>\n"
          + "  --target T         containers (default): the app image and the Cloud Run, GKE and"
          + " App Engine flexible files; appengine-standard: an app folder App Engine standard"
          + " deploys, starting this runtime as its <entrypoint> (see AppEngineStandard)\n"
          + "  --image-repo REPO  the repository the manifests name the app image in"
          + " (default: the service name)\n"
          + "  --base DIR         where the runtime images java17.tar, java21.tar, java25.tar are"
          + " (default: images/ beside runtime-main.jar, else the local Maven repository)\n"
          + "  --http2            the Cloud Run service uses HTTP/2 end to end: its container"
          + " port is named h2c, so Cloud Run sends requests as HTTP/2 cleartext\n"
          + "  --no-jsp-precompile  leave the app's JSPs to compile on their first request"
          + " (default: compiled now, into the image, with the image's own Jasper)\n";

  private Stage() {}

  /**
   * Stages an app; returns the exit code: 0 staged, 1 the app cannot be staged (one {@code error:}
   * line on {@code err}), 2 the command line was wrong.
   *
   * @param runtimeHome the launcher's directory, or null when unknown
   */
  public static int run(String[] args, Path runtimeHome, PrintStream out, PrintStream err) {
    String repo = null;
    Path base = null;
    String target = "containers";
    boolean http2 = false;
    boolean precompileJsps = true;
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("-h") || arg.equals("--help")) {
        out.print(USAGE);
        return 0;
      }
      if (arg.equals("--http2")) {
        http2 = true;
      } else if (arg.equals("--no-jsp-precompile")) {
        precompileJsps = false;
      } else if (arg.equals("--image-repo") || arg.equals("--base") || arg.equals("--target")) {
        if (i + 1 >= args.length) {
          return usage(err, arg + " needs a value");
        }
        if (arg.equals("--base")) {
          base = Path.of(args[++i]);
        } else if (arg.equals("--target")) {
          target = args[++i];
        } else {
          repo = args[++i];
        }
      } else if (arg.startsWith("--")) {
        return usage(err, "unknown option " + arg);
      } else {
        positional.add(arg);
      }
    }
    if (positional.size() != 2) {
      return usage(err, "stage needs an app (.war or directory) and an output directory");
    }
    if (target.equals("appengine-standard")) {
      return StandardStageCommand.run(
          Path.of(positional.get(0)),
          Path.of(positional.get(1)),
          runtimeHome,
          precompileJsps,
          out,
          err);
    }
    if (!target.equals("containers")) {
      return usage(err, "--target is containers or appengine-standard, not " + target);
    }
    try {
      RuntimeImages images =
          base != null
              ? RuntimeImages.in(base)
              : RuntimeImages.defaults(runtimeHome, System.getenv(), systemProperties());
      JspPrecompiler jsps =
          precompileJsps ? JspPrecompiler.beside(runtimeHome) : JspPrecompiler.none();
      Staged staged =
          stage(Path.of(positional.get(0)), Path.of(positional.get(1)), repo, images, http2, jsps);
      for (String note : staged.notes()) {
        err.println("note: " + note);
      }
      out.println("staged " + staged.plan().name() + " into " + positional.get(1));
      out.println("image: " + staged.image());
      return 0;
    } catch (StageException e) {
      err.println("error: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      err.println("error: cannot stage: " + e);
      return 1;
    }
  }

  private static int usage(PrintStream err, String message) {
    err.println("error: " + message);
    err.print(USAGE);
    return 2;
  }

  /** What was staged: the plan and the image reference the manifests use. */
  public record Staged(DeploymentPlan plan, String image, String digest, List<String> notes) {}

  private static Map<String, String> systemProperties() {
    Map<String, String> properties = new HashMap<>();
    System.getProperties().forEach((k, v) -> properties.put(k.toString(), v.toString()));
    return properties;
  }

  /** Stages {@code app} into {@code out}, onto the runtime images in the folder {@code base}. */
  public static Staged stage(Path app, Path out, String repo, Path base)
      throws StageException, IOException {
    return stage(app, out, repo, RuntimeImages.in(base));
  }

  /** Stages {@code app} into {@code out}, for a Cloud Run service on HTTP/1. */
  public static Staged stage(Path app, Path outDir, String repo, RuntimeImages images)
      throws StageException, IOException {
    return stage(app, outDir, repo, images, false);
  }

  /**
   * Stages {@code app} into {@code out}.
   *
   * @param http2 whether the Cloud Run service uses HTTP/2 end to end (h2c to the container)
   */
  public static Staged stage(
      Path app, Path outDir, String repo, RuntimeImages images, boolean http2)
      throws StageException, IOException {
    return stage(app, outDir, repo, images, http2, JspPrecompiler.none());
  }

  /**
   * Stages {@code app} into {@code out}, its JSPs precompiled by {@code jsps} (unless its
   * descriptor says {@code <precompilation-enabled>false</precompilation-enabled>}).
   *
   * @param http2 whether the Cloud Run service uses HTTP/2 end to end (h2c to the container)
   */
  public static Staged stage(
      Path app, Path outDir, String repo, RuntimeImages images, boolean http2, JspPrecompiler jsps)
      throws StageException, IOException {
    Path source = app.toAbsolutePath().normalize();
    // Absolute, so that every path below compares with every other ("./out" is "out" normalized).
    Path out = outDir.toAbsolutePath().normalize();
    if (!Files.exists(source)) {
      throw new StageException(source + ": no such app (expected a .war or an app directory)");
    }
    Files.createDirectories(out);
    Path appDir = out.resolve("app");
    Path work = out.resolve(".stage");
    try {
      return stageInto(source, out, appDir, work, repo, images, http2, jsps);
    } catch (StageException | IOException | RuntimeException e) {
      // Nothing half-staged: what this run copied goes (the manifests are written last).
      deleteTree(appDir);
      deleteTree(work);
      throw e;
    }
  }

  private static Staged stageInto(
      Path source,
      Path out,
      Path appDir,
      Path work,
      String repo,
      RuntimeImages images,
      boolean http2,
      JspPrecompiler jsps)
      throws StageException, IOException {
    deleteTree(appDir);
    if (Files.isDirectory(source)) {
      copyTree(source, appDir);
    } else {
      unzip(source, appDir);
    }
    Path descriptorFile = appDir.resolve("WEB-INF/appengine-web.xml");
    if (!Files.isRegularFile(descriptorFile)) {
      throw new StageException(source + ": no WEB-INF/appengine-web.xml in this app");
    }
    AppEngineWebXml descriptor;
    try (InputStream in = Files.newInputStream(descriptorFile)) {
      descriptor =
          AppEngineWebXmlParser.parse(in, source.getFileName() + "!/WEB-INF/appengine-web.xml");
    } catch (DescriptorException e) {
      throw new StageException(e.getMessage());
    }
    DeploymentPlan plan = DeploymentPlan.from(descriptor, source.getFileName().toString());
    List<String> notes = new ArrayList<>(plan.notes());
    deleteTree(work);
    if (descriptor.precompilationEnabled()) {
      EeVersion ee = selection(descriptor, plan.javaRuntime(), source).ee();
      notes.addAll(jsps.precompile(appDir, ee, work.resolve("jspc")));
    }

    Path runtimeArchive = images.archive(plan.javaRuntime());
    deleteTree(work);
    OciImage runtimeImage = OciImage.read(runtimeArchive, work);
    String runtimeDigest = Files.readString(digestFile(runtimeArchive)).trim();
    Layer appLayer =
        Layer.fromDirectory(appDir, "app", Layer.Ownership.READ_ONLY, work.resolve("app.tar.gz"));
    OciImage appImage =
        runtimeImage
            .plus(appLayer, "aerun stage: the app in /app")
            .withContainerConfig(
                c -> {
                  var env = (com.fasterxml.jackson.databind.node.ArrayNode) c.withArray("Env");
                  plan.env().forEach((k, v) -> env.add(k + "=" + v));
                });
    String repository = repo == null ? plan.name() : repo;
    OciImage.Written written = appImage.write(out.resolve("image.tar"), repository + ":latest");
    String image = repository + "@" + written.digest();
    write(out.resolve("image.tar.digest"), written.digest() + "\n");
    write(out.resolve("service.yaml"), Manifests.cloudRun(plan, image, http2));
    write(out.resolve("kubernetes.yaml"), Manifests.kubernetes(plan, image));
    write(out.resolve("app.yaml"), Manifests.appYaml(plan));
    write(
        out.resolve("Dockerfile"),
        Manifests.dockerfile(plan, "aerun/" + plan.javaRuntime() + "@" + runtimeDigest));
    deleteTree(work);
    return new Staged(plan, image, written.digest(), notes);
  }

  /** The EE version and mode the image's runtime will choose for the app. */
  static RuntimeSelection selection(AppEngineWebXml descriptor, String runtime, Path source)
      throws StageException {
    try {
      return RuntimeSelection.resolve(
          SelectionInput.of(descriptor)
              .withGaeRuntime(runtime)
              .withJvmFeatureVersion(Integer.parseInt(runtime.substring("java".length()))));
    } catch (SelectionException e) {
      throw new StageException(
          source.getFileName() + "!/WEB-INF/appengine-web.xml: " + e.getMessage());
    }
  }

  /** Where an image archive's digest is written: {@code IMAGE.tar.digest}. */
  static Path digestFile(Path archive) throws StageException {
    Path file = archive.resolveSibling(archive.getFileName() + ".digest");
    if (!Files.isRegularFile(file)) {
      throw new StageException("no " + file + " beside the runtime image");
    }
    return file;
  }

  private static void write(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  /** Extracts a war, refusing entries that would land outside {@code target}. */
  static void unzip(Path war, Path target) throws IOException, StageException {
    Files.createDirectories(target);
    try (ZipFile zip = new ZipFile(war.toFile())) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        Path to = target.resolve(entry.getName()).normalize();
        if (!to.startsWith(target) || to.equals(target)) {
          if (to.equals(target)) {
            continue;
          }
          throw new StageException(
              war + ": entry " + entry.getName() + " would be written outside the app");
        }
        if (entry.isDirectory()) {
          Files.createDirectories(to);
        } else {
          Files.createDirectories(to.getParent());
          try (InputStream in = zip.getInputStream(entry)) {
            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    } catch (java.util.zip.ZipException e) {
      throw new StageException(war + ": not a readable .war (" + e.getMessage() + ")");
    }
  }

  /**
   * Copies an exploded app: files and directories as they are; a symbolic link whose target is in
   * the app stays a link (made relative, so it works wherever the copy goes); one that leads out of
   * the app, or to nothing, is refused: its target is a file of this machine, not of the app, and
   * would be shipped in the image.
   */
  static void copyTree(Path from, Path to) throws IOException, StageException {
    Path root = from.toRealPath();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted().toList()) {
        String relative = root.relativize(p).toString();
        Path target = to.resolve(relative);
        if (Files.isSymbolicLink(p)) {
          Path real = linkTarget(from, relative, p);
          if (!real.startsWith(root)) {
            throw new StageException(
                from
                    + ": symbolic link "
                    + relative
                    + " -> "
                    + Files.readSymbolicLink(p)
                    + " leads out of the app; copy what it points to into the app instead");
          }
          Files.createDirectories(target.getParent());
          Files.createSymbolicLink(
              target, target.getParent().relativize(to.resolve(root.relativize(real).toString())));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(target);
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /** The real path of the link {@code link}'s target; refused when it leads to nothing. */
  private static Path linkTarget(Path app, String relative, Path link)
      throws IOException, StageException {
    try {
      return link.toRealPath();
    } catch (IOException e) {
      throw new StageException(
          app
              + ": symbolic link "
              + relative
              + " -> "
              + Files.readSymbolicLink(link)
              + " leads to nothing in the app");
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
