package dev.aerun.stage.oci;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A container image as data: an image config and its layers, written as an OCI image layout in one
 * tar archive ({@code podman load}, {@code skopeo copy oci-archive:}, registries through those),
 * with a Docker {@code manifest.json} beside it so that {@code docker load} accepts the same file.
 *
 * <p>Nothing in the output depends on the time or the machine: timestamps are the epoch, JSON is
 * written in one fixed field order, the archive's entries in one fixed order. The same layers and
 * config therefore give the same manifest digest.
 */
public final class OciImage {
  /** The creation time every image and history entry carries. */
  public static final String EPOCH = "1970-01-01T00:00:00Z";

  static final String MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";
  static final String CONFIG_TYPE = "application/vnd.oci.image.config.v1+json";
  static final String LAYER_TYPE = "application/vnd.oci.image.layer.v1.tar+gzip";
  static final String INDEX_TYPE = "application/vnd.oci.image.index.v1+json";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ObjectNode config;
  private final List<Layer> layers;

  private OciImage(ObjectNode config, List<Layer> layers) {
    this.config = config;
    this.layers = List.copyOf(layers);
  }

  /** An image with no layers and an empty container config, for linux/amd64. */
  public static OciImage empty() {
    ObjectNode config = JSON.createObjectNode();
    config.put("architecture", "amd64");
    config.put("os", "linux");
    config.put("created", EPOCH);
    config.putObject("config");
    ObjectNode rootfs = config.putObject("rootfs");
    rootfs.put("type", "layers");
    rootfs.putArray("diff_ids");
    config.putArray("history");
    return new OciImage(config, List.of());
  }

  /**
   * Reads an image archive written by {@link #write}; its layer blobs are copied into {@code
   * blobDir}.
   */
  public static OciImage read(Path archive, Path blobDir) throws IOException {
    Files.createDirectories(blobDir);
    Map<String, byte[]> metadata = new HashMap<>();
    Map<String, Path> blobs = new HashMap<>();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(archive), 1 << 16)) {
      TarReader.forEachFile(
          in,
          (name, size, content) -> {
            if (name.startsWith("blobs/sha256/") && size > 1 << 20) {
              Path file = blobDir.resolve(name.substring("blobs/sha256/".length()) + ".tar.gz");
              Files.copy(content, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
              blobs.put(name, file);
            } else {
              metadata.put(name, content.readAllBytes());
            }
          });
    }
    byte[] indexBytes = metadata.get("index.json");
    if (indexBytes == null) {
      throw new IOException(archive + ": not an OCI image archive (no index.json)");
    }
    JsonNode index = JSON.readTree(indexBytes);
    JsonNode manifest = JSON.readTree(blob(metadata, index.path("manifests").path(0), archive));
    ObjectNode config =
        (ObjectNode) JSON.readTree(blob(metadata, manifest.path("config"), archive));
    List<Layer> layers = new ArrayList<>();
    JsonNode diffIds = config.path("rootfs").path("diff_ids");
    int i = 0;
    for (JsonNode descriptor : manifest.path("layers")) {
      String digest = descriptor.path("digest").asText();
      String name = "blobs/sha256/" + digest.substring("sha256:".length());
      Path file = blobs.get(name);
      if (file == null) {
        byte[] small = metadata.get(name);
        if (small == null) {
          throw new IOException(archive + ": missing layer " + digest);
        }
        file = blobDir.resolve(digest.substring("sha256:".length()) + ".tar.gz");
        Files.write(file, small);
      }
      layers.add(
          new Layer(file, digest, descriptor.path("size").asLong(), diffIds.path(i++).asText()));
    }
    return new OciImage(config, layers);
  }

  private static byte[] blob(Map<String, byte[]> metadata, JsonNode descriptor, Path archive)
      throws IOException {
    String digest = descriptor.path("digest").asText("");
    byte[] bytes =
        digest.startsWith("sha256:")
            ? metadata.get("blobs/sha256/" + digest.substring("sha256:".length()))
            : null;
    if (bytes == null) {
      throw new IOException(archive + ": missing blob " + (digest.isEmpty() ? "?" : digest));
    }
    return bytes;
  }

  /** This image with one more layer on top, recorded in the history as {@code createdBy}. */
  public OciImage plus(Layer layer, String createdBy) {
    ObjectNode newConfig = config.deepCopy();
    ((ArrayNode) newConfig.path("rootfs").path("diff_ids")).add(layer.diffId());
    ObjectNode history = ((ArrayNode) newConfig.path("history")).addObject();
    history.put("created", EPOCH);
    history.put("created_by", createdBy);
    List<Layer> newLayers = new ArrayList<>(layers);
    newLayers.add(layer);
    return new OciImage(newConfig, newLayers);
  }

  /** This image with its container config ({@code config.config}) changed by {@code edit}. */
  public OciImage withContainerConfig(Consumer<ObjectNode> edit) {
    ObjectNode newConfig = config.deepCopy();
    edit.accept((ObjectNode) newConfig.path("config"));
    return new OciImage(newConfig, layers);
  }

  /** The container config: {@code Entrypoint}, {@code Env}, {@code User} ... (a copy). */
  public ObjectNode containerConfig() {
    return config.path("config").deepCopy();
  }

  public List<Layer> layers() {
    return layers;
  }

  /** What {@link #write} wrote: the manifest's digest ({@code sha256:<hex>}) and the layers. */
  public record Written(String digest, Path archive) {}

  /**
   * Writes the image archive; {@code reference} (e.g. {@code aerun/java17:latest}) names it for
   * {@code docker load} and in the OCI index's {@code org.opencontainers.image.ref.name}.
   */
  public Written write(Path archive, String reference) throws IOException {
    byte[] configBytes = JSON.writeValueAsBytes(config);
    String configDigest = digest(configBytes);
    ObjectNode manifest = JSON.createObjectNode();
    manifest.put("schemaVersion", 2);
    manifest.put("mediaType", MANIFEST_TYPE);
    descriptor(manifest.putObject("config"), CONFIG_TYPE, configDigest, configBytes.length);
    ArrayNode layerArray = manifest.putArray("layers");
    for (Layer layer : layers) {
      descriptor(layerArray.addObject(), LAYER_TYPE, layer.digest(), layer.size());
    }
    byte[] manifestBytes = JSON.writeValueAsBytes(manifest);
    String manifestDigest = digest(manifestBytes);

    ObjectNode index = JSON.createObjectNode();
    index.put("schemaVersion", 2);
    index.put("mediaType", INDEX_TYPE);
    ObjectNode entry =
        descriptor(
            index.putArray("manifests").addObject(),
            MANIFEST_TYPE,
            manifestDigest,
            manifestBytes.length);
    entry.putObject("annotations").put("org.opencontainers.image.ref.name", reference);

    ArrayNode docker = JSON.createArrayNode();
    ObjectNode dockerEntry = docker.addObject();
    dockerEntry.put("Config", "blobs/sha256/" + hex(configDigest));
    dockerEntry
        .putArray("RepoTags")
        .add(reference.contains(":") ? reference : reference + ":latest");
    ArrayNode dockerLayers = dockerEntry.putArray("Layers");
    for (Layer layer : layers) {
      dockerLayers.add("blobs/sha256/" + hex(layer.digest()));
    }

    Files.createDirectories(archive.toAbsolutePath().getParent());
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(archive), 1 << 16)) {
      TarWriter tar = new TarWriter(out);
      tar.directory("blobs", 0755, 0, 0);
      tar.directory("blobs/sha256", 0755, 0, 0);
      List<String> written = new ArrayList<>();
      tar.file("blobs/sha256/" + hex(configDigest), 0644, 0, 0, configBytes);
      written.add(configDigest);
      for (Layer layer : layers) {
        if (written.contains(layer.digest())) {
          continue; // the same blob twice (e.g. two empty layers) is stored once
        }
        written.add(layer.digest());
        try (InputStream in = Files.newInputStream(layer.file())) {
          tar.file("blobs/sha256/" + hex(layer.digest()), 0644, 0, 0, layer.size(), in);
        }
      }
      tar.file("blobs/sha256/" + hex(manifestDigest), 0644, 0, 0, manifestBytes);
      tar.file("index.json", 0644, 0, 0, JSON.writeValueAsBytes(index));
      tar.file("manifest.json", 0644, 0, 0, JSON.writeValueAsBytes(docker));
      tar.file(
          "oci-layout",
          0644,
          0,
          0,
          "{\"imageLayoutVersion\":\"1.0.0\"}".getBytes(StandardCharsets.UTF_8));
      tar.close();
    }
    return new Written(manifestDigest, archive);
  }

  private static ObjectNode descriptor(ObjectNode node, String type, String digest, long size) {
    node.put("mediaType", type);
    node.put("digest", digest);
    node.put("size", size);
    return node;
  }

  private static String digest(byte[] bytes) {
    MessageDigest sha = Layer.sha256();
    sha.update(bytes);
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  private static String hex(String digest) {
    return digest.substring("sha256:".length());
  }
}
