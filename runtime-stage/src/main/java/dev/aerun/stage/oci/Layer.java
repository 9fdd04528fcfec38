package dev.aerun.stage.oci;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * One image layer: a gzip-compressed tar in a file, with its digest (of the compressed bytes, how
 * manifests name it) and its diff id (of the uncompressed tar, how the image config names it).
 *
 * @param file the {@code .tar.gz}
 * @param digest {@code sha256:<hex>} of the file
 * @param size the file's size in bytes
 * @param diffId {@code sha256:<hex>} of the uncompressed tar
 */
public record Layer(Path file, String digest, long size, String diffId) {

  /** How a tree's files are owned and what modes they get in a layer. */
  public record Ownership(int uid, int gid, boolean normalizeModes) {
    /** Owned by root, modes as on disk: a root file system. */
    public static final Ownership ROOTFS = new Ownership(0, 0, false);

    /**
     * Owned by root, directories 0755, files 0644 or 0755 when executable: read-only to the image's
     * user and independent of the umask of the machine that built them.
     */
    public static final Ownership READ_ONLY = new Ownership(0, 0, true);
  }

  /**
   * Writes the tree under {@code root} into a layer at {@code prefix} (e.g. {@code app}, or empty
   * for a root file system), with the directories leading to the prefix, entries sorted by name,
   * symbolic links kept as links.
   */
  public static Layer fromDirectory(Path root, String prefix, Ownership owner, Path gzFile)
      throws IOException {
    return write(
        gzFile,
        tar -> {
          String base = "";
          for (String part : prefix.isEmpty() ? new String[0] : prefix.split("/")) {
            base = base.isEmpty() ? part : base + "/" + part;
            tar.directory(base, 0755, owner.uid(), owner.gid());
          }
          addChildren(tar, root, base, owner);
        });
  }

  /** Writes a layer whose entries {@code contents} writes. */
  public static Layer write(Path gzFile, Contents contents) throws IOException {
    MessageDigest uncompressed = sha256();
    MessageDigest compressed = sha256();
    long[] size = new long[1];
    Files.createDirectories(gzFile.toAbsolutePath().getParent());
    try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(gzFile), 1 << 16);
        OutputStream counted = new DigestOutputStream(counting(file, size), compressed);
        GZIPOutputStream gzip = new GZIPOutputStream(counted, 1 << 16);
        OutputStream tarBytes = new DigestOutputStream(gzip, uncompressed)) {
      TarWriter tar = new TarWriter(tarBytes);
      contents.writeTo(tar);
      tar.close();
    }
    return new Layer(gzFile, "sha256:" + hex(compressed), size[0], "sha256:" + hex(uncompressed));
  }

  /** Writes a layer's entries. */
  @FunctionalInterface
  public interface Contents {
    void writeTo(TarWriter tar) throws IOException;
  }

  private static void addChildren(TarWriter tar, Path dir, String name, Ownership owner)
      throws IOException {
    List<Path> children;
    try (Stream<Path> list = Files.list(dir)) {
      children = new ArrayList<>(list.toList());
    }
    children.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    for (Path child : children) {
      String childName =
          name.isEmpty() ? child.getFileName().toString() : name + "/" + child.getFileName();
      PosixFileAttributes attributes =
          Files.readAttributes(child, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      int mode = owner.normalizeModes() ? normalized(attributes) : mode(attributes.permissions());
      if (childName.equals("tmp") && attributes.isDirectory()) {
        mode = 01777; // a root file system's /tmp: anyone writes, only owners delete
      }
      if (attributes.isSymbolicLink()) {
        tar.symlink(childName, Files.readSymbolicLink(child).toString(), owner.uid(), owner.gid());
      } else if (attributes.isDirectory()) {
        tar.directory(childName, mode, owner.uid(), owner.gid());
        addChildren(tar, child, childName, owner);
      } else if (attributes.isRegularFile()) {
        try (var in = Files.newInputStream(child)) {
          tar.file(childName, mode, owner.uid(), owner.gid(), attributes.size(), in);
        }
      }
      // Devices, sockets and pipes have no place in an image layer.
    }
  }

  private static int normalized(PosixFileAttributes attributes) {
    if (attributes.isDirectory()
        || attributes.permissions().contains(PosixFilePermission.OWNER_EXECUTE)) {
      return 0755;
    }
    return 0644;
  }

  private static int mode(Set<PosixFilePermission> permissions) {
    int mode = 0;
    for (PosixFilePermission p : permissions) {
      mode |= 1 << (8 - p.ordinal());
    }
    return mode;
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String hex(MessageDigest digest) {
    return HexFormat.of().formatHex(digest.digest());
  }

  private static OutputStream counting(OutputStream out, long[] count) {
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        out.write(b);
        count[0]++;
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        count[0] += len;
      }
    };
  }
}
