package dev.aerun.stage.oci;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes an image archive from directories, one layer each, without a container daemon: how the
 * {@code images} module assembles the runtime images.
 *
 * <pre>
 * ImageTool --out IMAGE.tar --ref NAME [--layer DIR[=PREFIX][@rootfs]]... [--entrypoint JSON]
 *           [--env K=V]... [--user UID:GID] [--workdir DIR] [--port N] [--label K=V]...
 * </pre>
 *
 * <p>Layers go in the order given; {@code @rootfs} keeps the modes on disk (a root file system),
 * otherwise files are made read-only to the image's user. The manifest digest is printed and
 * written to {@code IMAGE.tar.digest}. Exit 2 with one {@code error:} line on a bad command line.
 */
public final class ImageTool {
  private ImageTool() {}

  public static void main(String[] args) throws IOException {
    try {
      System.out.println(run(args));
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
    }
  }

  /** Builds the image the arguments describe and returns its digest. */
  static String run(String[] args) throws IOException {
    Path out = null;
    String ref = "aerun/image:latest";
    List<String> layerSpecs = new ArrayList<>();
    String entrypoint = null;
    List<String> env = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    String user = null;
    String workdir = null;
    String port = null;
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      if (value == null) {
        throw new IllegalArgumentException(args[i] + " needs a value");
      }
      switch (args[i]) {
        case "--out" -> out = Path.of(value);
        case "--ref" -> ref = value;
        case "--layer" -> layerSpecs.add(value);
        case "--entrypoint" -> entrypoint = value;
        case "--env" -> env.add(value);
        case "--label" -> labels.add(value);
        case "--user" -> user = value;
        case "--workdir" -> workdir = value;
        case "--port" -> port = value;
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
      i++;
    }
    if (out == null) {
      throw new IllegalArgumentException("--out is required");
    }
    OciImage image = OciImage.empty();
    Path blobs = out.toAbsolutePath().getParent().resolve(out.getFileName() + ".layers");
    int n = 0;
    for (String spec : layerSpecs) {
      boolean rootfs = spec.endsWith("@rootfs");
      String rest = rootfs ? spec.substring(0, spec.length() - "@rootfs".length()) : spec;
      int eq = rest.indexOf('=');
      Path dir = Path.of(eq < 0 ? rest : rest.substring(0, eq));
      String prefix = eq < 0 ? "" : rest.substring(eq + 1).replaceAll("^/+|/+$", "");
      if (!Files.isDirectory(dir)) {
        throw new IllegalArgumentException("--layer " + dir + ": no such directory");
      }
      Layer layer =
          Layer.fromDirectory(
              dir,
              prefix,
              rootfs ? Layer.Ownership.ROOTFS : Layer.Ownership.READ_ONLY,
              blobs.resolve("layer-" + n++ + ".tar.gz"));
      image = image.plus(layer, "aerun layer /" + prefix);
    }
    ObjectMapper json = new ObjectMapper();
    String entrypointJson = entrypoint;
    String finalUser = user;
    String finalWorkdir = workdir;
    String finalPort = port;
    image =
        image.withContainerConfig(
            c -> {
              if (finalUser != null) {
                c.put("User", finalUser);
              }
              if (!env.isEmpty()) {
                ArrayNode e = c.putArray("Env");
                env.forEach(e::add);
              }
              if (entrypointJson != null) {
                try {
                  c.set("Entrypoint", json.readTree(entrypointJson));
                } catch (IOException ex) {
                  throw new IllegalArgumentException("--entrypoint is not a JSON array", ex);
                }
              }
              if (finalWorkdir != null) {
                c.put("WorkingDir", finalWorkdir);
              }
              if (finalPort != null) {
                c.putObject("ExposedPorts").putObject(finalPort + "/tcp");
              }
              if (!labels.isEmpty()) {
                var l = c.putObject("Labels");
                for (String label : labels) {
                  int eq = label.indexOf('=');
                  l.put(label.substring(0, eq), label.substring(eq + 1));
                }
              }
            });
    OciImage.Written written = image.write(out, ref);
    Files.writeString(
        out.resolveSibling(out.getFileName() + ".digest"),
        written.digest() + "\n",
        StandardCharsets.UTF_8);
    return written.digest();
  }
}
