package dev.aerun.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aerun.rpc.runtime.RpcRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Legacy mode drives Jetty through its public API only: Jetty's {@code internal} packages change
 * between releases without notice, and an upgrade must not break the RPC connector silently.
 */
class JettyPublicApiTest {
  private static final String INTERNAL = "org/eclipse/jetty/server/internal/";

  @Test
  void mainClasses_referToNoJettyInternalClass() throws Exception {
    Path classes =
        Path.of(RpcRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> offenders;
    try (Stream<Path> files = Files.walk(classes)) {
      offenders =
          files
              .filter(f -> f.toString().endsWith(".class"))
              .filter(JettyPublicApiTest::refersToInternal)
              .map(f -> classes.relativize(f).toString())
              .toList();
    }
    assertEquals(List.of(), offenders);
  }

  private static boolean refersToInternal(Path classFile) {
    try {
      // Class names in the constant pool are plain UTF-8 (ASCII here).
      return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1)
          .contains(INTERNAL);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
