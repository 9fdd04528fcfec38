package dev.aerun.runtime.webapp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JspUsageTest {
  @TempDir Path tmp;

  private static final String PLAIN_WEB_XML =
      "<web-app><servlet-name>hello</servlet-name></web-app>";

  private Path dir(Map<String, byte[]> files) throws IOException {
    Path app = Files.createTempDirectory(tmp, "app");
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      Path path = app.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.write(path, file.getValue());
    }
    return app;
  }

  private Path war(Map<String, byte[]> files) throws IOException {
    Path war = Files.createTempFile(tmp, "app", ".war");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(war))) {
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        zip.putNextEntry(new ZipEntry(file.getKey()));
        zip.write(file.getValue());
        zip.closeEntry();
      }
    }
    return war;
  }

  private static byte[] jar(String... entries) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String entry : entries) {
        zip.putNextEntry(new ZipEntry(entry));
        zip.write(1);
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  private void assertBoth(boolean expected, Map<String, byte[]> files) throws IOException {
    if (expected) {
      assertTrue(JspUsage.needsJsp(dir(files)), "directory " + files.keySet());
      assertTrue(JspUsage.needsJsp(war(files)), "war " + files.keySet());
    } else {
      assertFalse(JspUsage.needsJsp(dir(files)), "directory " + files.keySet());
      assertFalse(JspUsage.needsJsp(war(files)), "war " + files.keySet());
    }
  }

  private static byte[] text(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void appWithoutAnythingForJsp_needsNone() throws IOException {
    assertBoth(
        false,
        Map.of(
            "WEB-INF/web.xml", text(PLAIN_WEB_XML),
            "index.html", text("<p>hi</p>"),
            "WEB-INF/classes/app/Hello.class", text("x"),
            "WEB-INF/lib/lib.jar", jar("com/example/A.class", "META-INF/MANIFEST.MF")));
  }

  @Test
  void jspOrTagFilesAnywhere_needJsp() throws IOException {
    for (String name :
        new String[] {
          "index.jsp", "a/b.JSPX", "WEB-INF/inc.jspf", "WEB-INF/tags/t.tag", "WEB-INF/t.tld"
        }) {
      assertBoth(true, Map.of("WEB-INF/web.xml", text(PLAIN_WEB_XML), name, text("x")));
    }
  }

  @Test
  void webXmlMentioningJsp_needsJsp() throws IOException {
    assertBoth(
        true,
        Map.of(
            "WEB-INF/web.xml",
            text("<web-app><servlet><jsp-file>/WEB-INF/v.html</jsp-file></servlet></web-app>")));
  }

  @Test
  void precompiledJsps_needJsp() throws IOException {
    assertBoth(true, Map.of("WEB-INF/classes/org/apache/jsp/index_jsp.class", text("x")));
  }

  @Test
  void libraryJarWithJspResourcesOrTaglibs_needsJsp() throws IOException {
    assertBoth(true, Map.of("WEB-INF/lib/ui.jar", jar("META-INF/resources/widgets/panel.jsp")));
    assertBoth(true, Map.of("WEB-INF/lib/tags.jar", jar("META-INF/c.tld")));
  }

  @Test
  void aJspNamedFileOutsideMetaInfOfAJar_isNotOne() throws IOException {
    assertBoth(false, Map.of("WEB-INF/lib/odd.jar", jar("docs/readme.jsp")));
  }
}
