package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.EeVersion;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EeClassLoadersTest {

  @TempDir Path home;

  @Test
  void eeFolder_isLibSlashVersionBesideTheJar() throws Exception {
    Files.createDirectories(home.resolve("lib/ee10"));

    assertEquals(
        Optional.of(home.resolve("lib/ee10")), EeClassLoaders.eeFolder(home, EeVersion.EE10));
  }

  @Test
  void eeFolder_missingFolderIsEmpty() throws Exception {
    Files.createDirectories(home.resolve("lib/ee10"));

    assertTrue(EeClassLoaders.eeFolder(home, EeVersion.EE8).isEmpty());
  }

  @Test
  void eeFolder_plainFileIsNotAFolder() throws Exception {
    Files.createDirectories(home.resolve("lib"));
    Files.writeString(home.resolve("lib/ee8"), "not a folder");

    assertTrue(EeClassLoaders.eeFolder(home, EeVersion.EE8).isEmpty());
  }

  @Test
  void jarUrls_areTheJarsSortedByName() throws Exception {
    Path folder = Files.createDirectories(home.resolve("lib/ee8"));
    Files.writeString(folder.resolve("b.jar"), "");
    Files.writeString(folder.resolve("a.jar"), "");
    Files.writeString(folder.resolve("notes.txt"), "");
    Files.createDirectories(folder.resolve("sub.jar"));

    URL[] urls = EeClassLoaders.jarUrls(folder, true);

    assertArrayEquals(
        new URL[] {
          folder.resolve("a.jar").toUri().toURL(), folder.resolve("b.jar").toUri().toURL()
        },
        urls);
  }

  @Test
  void jarUrls_withoutJsp_leaveTheJspStackOut() throws Exception {
    Path folder = Files.createDirectories(home.resolve("lib/ee10"));
    for (String jar :
        new String[] {
          "ecj-3.33.0.jar",
          "jakarta.el-api-5.0.1.jar",
          "jakarta.servlet-api-6.0.0.jar",
          "jakarta.servlet.jsp-api-3.1.1.jar",
          "jakarta.servlet.jsp.jstl-3.0.1.jar",
          "jetty-ee10-apache-jsp-12.1.7.jar",
          "jetty-ee10-servlet-12.1.7.jar",
          "mortbay-apache-jsp-10.1.48.jar"
        }) {
      Files.writeString(folder.resolve(jar), "");
    }

    URL[] withoutJsp = EeClassLoaders.jarUrls(folder, false);

    assertArrayEquals(
        new URL[] {
          folder.resolve("jakarta.servlet-api-6.0.0.jar").toUri().toURL(),
          folder.resolve("jetty-ee10-servlet-12.1.7.jar").toUri().toURL()
        },
        withoutJsp);
    assertEquals(8, EeClassLoaders.jarUrls(folder, true).length);
  }

  @Test
  void forVersion_withoutEeFolderIsThisClassLoader() throws Exception {
    Files.createDirectories(home.resolve("lib/ee8"));

    ClassLoader loader = EeClassLoaders.forVersion(Optional.of(home), EeVersion.EE11, true);

    assertEquals(EeClassLoaders.class.getClassLoader(), loader);
  }

  @Test
  void forVersion_withEeFolderIsALoaderOverItsJars() throws Exception {
    Path folder = Files.createDirectories(home.resolve("lib/ee11"));
    Files.writeString(folder.resolve("jetty-ee11-servlet-12.1.7.jar"), "");

    ClassLoader loader = EeClassLoaders.forVersion(Optional.of(home), EeVersion.EE11, true);

    assertEquals("aerun-ee11", loader.getName());
    assertArrayEquals(
        new URL[] {folder.resolve("jetty-ee11-servlet-12.1.7.jar").toUri().toURL()},
        ((java.net.URLClassLoader) loader).getURLs());
  }
}
