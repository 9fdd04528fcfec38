package dev.aerun.stage.oci;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Writes the JRE's {@code cacerts} from the CA certificates of Debian's {@code ca-certificates}
 * package, byte for byte the same on every build.
 *
 * <p>Debian makes that file in a maintainer script, which an image assembled from unpacked packages
 * never runs; {@code keytool} would stamp each entry with the current time. This writes the JKS
 * format (which every JDK reads, password {@code changeit}) directly, entries sorted by alias, each
 * dated at the epoch.
 *
 * <pre>TrustStore CERT_DIR OUT_FILE</pre>
 */
public final class TrustStore {
  private static final String PASSWORD = "changeit";

  private TrustStore() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("error: usage: TrustStore CERT_DIR OUT_FILE");
      System.exit(2);
    }
    Path out = Path.of(args[1]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, write(Path.of(args[0])));
  }

  /** The JKS bytes for every {@code *.crt} below {@code certDir}. */
  static byte[] write(Path certDir) throws IOException, GeneralSecurityException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(certDir)) {
      files = walk.filter(p -> p.toString().endsWith(".crt")).sorted().toList();
    }
    CertificateFactory x509 = CertificateFactory.getInstance("X.509");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream data = new DataOutputStream(bytes);
    data.writeInt(0xFEEDFEED);
    data.writeInt(2);
    data.writeInt(files.size());
    for (Path file : files) {
      Certificate certificate;
      try (InputStream in = Files.newInputStream(file)) {
        certificate = x509.generateCertificate(in);
      }
      String name = file.getFileName().toString();
      byte[] encoded = certificate.getEncoded();
      data.writeInt(2); // a trusted certificate entry
      data.writeUTF(name.substring(0, name.length() - 4).toLowerCase(Locale.ROOT) + " [debian]");
      data.writeLong(0L);
      data.writeUTF("X.509");
      data.writeInt(encoded.length);
      data.write(encoded);
    }
    data.flush();
    MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
    for (char c : PASSWORD.toCharArray()) {
      sha1.update((byte) (c >> 8));
      sha1.update((byte) c);
    }
    sha1.update("Mighty Aphrodite".getBytes(StandardCharsets.UTF_8));
    sha1.update(bytes.toByteArray());
    data.write(sha1.digest());
    data.flush();
    return bytes.toByteArray();
  }
}
