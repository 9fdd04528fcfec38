package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagedAppTest {
  private static final Path OPEN_FILES = Path.of("/proc/self/fd");

  @TempDir Path tmp;

  /** The files this JVM has open that are {@code file} (Linux). */
  private static List<Path> openDescriptorsOf(Path file) throws IOException {
    Path real = file.toRealPath();
    try (Stream<Path> fds = Files.list(OPEN_FILES)) {
      return fds.filter(
              fd -> {
                try {
                  return Files.readSymbolicLink(fd).equals(real);
                } catch (IOException | UnsupportedOperationException e) {
                  return false; // closed meanwhile, or not a link
                }
              })
          .toList();
    }
  }

  private Path war(String name) throws IOException {
    Path war = tmp.resolve("app.war");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(war))) {
      out.putNextEntry(new ZipEntry(name));
      out.write("<appengine-web-app/>".getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    return war;
  }

  @Test
  void readsTheDescriptorOfAWar() throws Exception {
    StagedApp app = StagedApp.open(war(StagedApp.DESCRIPTOR));
    try (InputStream in = app.openDescriptor()) {
      assertEquals("<appengine-web-app/>", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void missingDescriptorLeavesNoOpenWar() throws Exception {
    assumeTrue(Files.isDirectory(OPEN_FILES), "needs /proc/self/fd");
    Path war = war("WEB-INF/web.xml");
    StagedApp app = new StagedApp(war, true); // the war changed since it was checked

    assertThrows(IOException.class, app::openDescriptor);

    assertEquals(List.of(), openDescriptorsOf(war));
  }
}
