package dev.aerun.stage.oci;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrustStoreTest {
  @TempDir Path dir;

  @Test
  void jdkLoadsIt_andItIsTheSameTwice() throws Exception {
    // Two CA certificates from the JDK's own trust store, as PEM files.
    KeyStore jdk = KeyStore.getInstance(KeyStore.getDefaultType());
    try (var in =
        Files.newInputStream(Path.of(System.getProperty("java.home"), "lib/security/cacerts"))) {
      jdk.load(in, null);
    }
    var aliases = java.util.Collections.list(jdk.aliases());
    for (int i = 0; i < 2; i++) {
      X509Certificate cert = (X509Certificate) jdk.getCertificate(aliases.get(i));
      Path pem = Files.createDirectories(dir.resolve("mozilla")).resolve("CA_" + i + ".crt");
      Files.writeString(
          pem,
          "-----BEGIN CERTIFICATE-----\n"
              + Base64.getMimeEncoder().encodeToString(cert.getEncoded())
              + "\n-----END CERTIFICATE-----\n");
    }
    byte[] first = TrustStore.write(dir);
    assertArrayEquals(first, TrustStore.write(dir));
    KeyStore loaded = KeyStore.getInstance("JKS");
    loaded.load(new ByteArrayInputStream(first), "changeit".toCharArray());
    assertEquals(2, loaded.size());
    assertTrue(loaded.isCertificateEntry("ca_0 [debian]"));
    assertEquals(jdk.getCertificate(aliases.get(1)), loaded.getCertificate("ca_1 [debian]"));
  }
}
