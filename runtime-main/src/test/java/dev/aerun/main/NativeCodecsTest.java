package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeCodecsTest {
  @TempDir Path home;

  private final Map<String, String> properties = new HashMap<>();

  private void useBundled(Optional<Path> at) {
    NativeCodecs.useBundled(at, properties::get, properties::put);
  }

  @Test
  void aHomeWithTheLibraries_pointsEachCodecAtItsOwn() throws Exception {
    Path folder = Files.createDirectories(home.resolve("lib/native"));
    Files.write(folder.resolve("libbrotli.so"), new byte[] {1});
    Files.write(folder.resolve("libzstd-jni.so"), new byte[] {2});

    useBundled(Optional.of(home));

    assertEquals(
        Map.of(
            "brotli4j.library.path", folder.resolve("libbrotli.so").toString(),
            "ZstdNativePath", folder.resolve("libzstd-jni.so").toString()),
        properties);
  }

  @Test
  void aPropertyAlreadySet_staysTheOperators() throws Exception {
    Path folder = Files.createDirectories(home.resolve("lib/native"));
    Files.write(folder.resolve("libbrotli.so"), new byte[] {1});
    Files.write(folder.resolve("libzstd-jni.so"), new byte[] {2});
    properties.put("ZstdNativePath", "/usr/lib/libzstd-jni.so");

    useBundled(Optional.of(home));

    assertEquals("/usr/lib/libzstd-jni.so", properties.get("ZstdNativePath"));
    assertEquals(
        folder.resolve("libbrotli.so").toString(), properties.get("brotli4j.library.path"));
  }

  @Test
  void withoutTheLibraries_theCodecsExtractTheirOwnAsBefore() throws Exception {
    useBundled(Optional.empty());
    useBundled(Optional.of(home)); // no lib/native
    Files.createDirectories(home.resolve("lib/native/libbrotli.so")); // not a file
    useBundled(Optional.of(home));

    assertEquals(Map.of(), properties);
  }
}
