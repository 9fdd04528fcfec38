package dev.aerun.main;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** A staged app: an exploded directory or a {@code .war}, and where its descriptor is. */
record StagedApp(Path location, boolean war) {
  static final String DESCRIPTOR = "WEB-INF/appengine-web.xml";

  /** Checks that the app exists and has a descriptor. */
  static StagedApp open(Path location) throws StartupException {
    Path absolute = location.toAbsolutePath().normalize();
    if (Files.isDirectory(absolute)) {
      if (!Files.isRegularFile(absolute.resolve(DESCRIPTOR))) {
        throw new StartupException(absolute + ": no " + DESCRIPTOR + " in this app directory");
      }
      return new StagedApp(absolute, false);
    }
    if (Files.isRegularFile(absolute)) {
      try (ZipFile zip = new ZipFile(absolute.toFile())) {
        if (zip.getEntry(DESCRIPTOR) == null) {
          throw new StartupException(absolute + ": no " + DESCRIPTOR + " in this war");
        }
      } catch (IOException e) {
        throw new StartupException(absolute + ": not a readable .war (" + e.getMessage() + ")");
      }
      return new StagedApp(absolute, true);
    }
    throw new StartupException(
        absolute + ": no such app (expected an exploded app directory or a .war file)");
  }

  /** How error messages name the descriptor: a path, or {@code app.war!/WEB-INF/...}. */
  String descriptorName() {
    return war ? location + "!/" + DESCRIPTOR : location.resolve(DESCRIPTOR).toString();
  }

  /** Opens the descriptor; the caller closes the stream (and with it the war). */
  InputStream openDescriptor() throws IOException {
    if (!war) {
      return Files.newInputStream(location.resolve(DESCRIPTOR));
    }
    ZipFile zip = new ZipFile(location.toFile());
    InputStream in;
    try {
      ZipEntry entry = zip.getEntry(DESCRIPTOR);
      if (entry == null) {
        throw new IOException("no " + DESCRIPTOR + " in this war");
      }
      in = zip.getInputStream(entry);
    } catch (IOException | RuntimeException e) {
      // The stream that would close the war was never made: close it here.
      try {
        zip.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return new java.io.FilterInputStream(in) {
      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          zip.close();
        }
      }
    };
  }

  /** The name shown in the start-up line: the war or directory's file name. */
  String displayName() {
    return location.getFileName().toString();
  }
}
