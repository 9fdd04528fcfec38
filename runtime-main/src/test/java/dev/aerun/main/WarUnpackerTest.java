package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarUnpackerTest {
  @TempDir Path tmp;

  private Path war(Map<String, String> entries) throws IOException {
    Path war = tmp.resolve("app.war");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(war))) {
      for (Map.Entry<String, String> e : entries.entrySet()) {
        out.putNextEntry(new ZipEntry(e.getKey()));
        out.write(e.getValue().getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
    return war;
  }

  private Path unpack(Map<String, String> entries, WarUnpacker.Limits limits) throws IOException {
    Path target = tmp.resolve("work/app");
    WarUnpacker.unpack(war(entries), target, limits, () -> false);
    return target;
  }

  @Test
  void unpacksFilesAndDirectories() throws Exception {
    Map<String, String> entries = new LinkedHashMap<>();
    entries.put("WEB-INF/", "");
    entries.put("WEB-INF/appengine-web.xml", "<appengine-web-app/>");
    entries.put("css/site.css", "body{}");
    entries.put("a/./b/../c.txt", "normalised inside");
    Path app = unpack(entries, WarUnpacker.Limits.DEFAULTS);
    assertEquals(
        "<appengine-web-app/>", Files.readString(app.resolve("WEB-INF/appengine-web.xml")));
    assertEquals("body{}", Files.readString(app.resolve("css/site.css")));
    assertEquals("normalised inside", Files.readString(app.resolve("a/c.txt")));
  }

  @Test
  void namesThatLeaveTheTargetAreRefusedWithEitherSeparator() {
    for (String name :
        new String[] {
          "../x", "..\\x", "a/../../x", "a\\..\\..\\x", "..\\..\\..\\tmp\\x", "a/..\\..\\x", ".."
        }) {
      assertTrue(WarUnpacker.refusal(name).contains("leaves the app directory"), name);
    }
  }

  @Test
  void absolutePathsDriveLettersAndNulAreRefused() {
    assertTrue(WarUnpacker.refusal("/etc/passwd").contains("absolute"));
    assertTrue(WarUnpacker.refusal("\\Windows\\x").contains("absolute"));
    assertTrue(WarUnpacker.refusal("C:\\Windows\\x").contains("drive letter"));
    assertTrue(WarUnpacker.refusal("c:x").contains("drive letter"));
    assertTrue(WarUnpacker.refusal("a\0b").contains("NUL"));
  }

  @Test
  void ordinaryNamesPass() {
    for (String name : new String[] {"a", "a/b/c.txt", "a/../b", "./a", "a..b/c", "...", "ab:c"}) {
      assertNull(WarUnpacker.refusal(name), name);
    }
  }

  @Test
  void refusedEntryWritesNothingOutsideAndNamesTheEntry() throws Exception {
    Map<String, String> entries = new LinkedHashMap<>();
    entries.put("ok.txt", "fine");
    entries.put("..\\..\\escaped.txt", "no");
    WarUnpacker.Refused e =
        assertThrows(WarUnpacker.Refused.class, () -> unpack(entries, WarUnpacker.Limits.DEFAULTS));
    assertTrue(e.getMessage().contains("\"..\\..\\escaped.txt\""), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("escaped.txt")));
    assertFalse(Files.exists(tmp.resolve("work/escaped.txt")));
    assertFalse(Files.exists(tmp.resolve("..\\..\\escaped.txt")));
  }

  @Test
  void entryCountIsBoundedBeforeAnythingIsWritten() throws Exception {
    Map<String, String> entries = new LinkedHashMap<>();
    for (int i = 0; i < 11; i++) {
      entries.put("f" + i, "x");
    }
    WarUnpacker.Refused e =
        assertThrows(
            WarUnpacker.Refused.class, () -> unpack(entries, new WarUnpacker.Limits(1000, 10)));
    assertTrue(e.getMessage().contains("11 entries"), e.getMessage());
    assertTrue(e.getMessage().contains("--max-war-entries"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("work/app/f0")));
  }

  @Test
  void unpackedBytesAreCountedNotDeclared() throws Exception {
    Map<String, String> entries = new LinkedHashMap<>();
    entries.put("small.txt", "x".repeat(60));
    entries.put("large.txt", "y".repeat(60));
    WarUnpacker.Refused e =
        assertThrows(
            WarUnpacker.Refused.class, () -> unpack(entries, new WarUnpacker.Limits(100, 10)));
    assertTrue(e.getMessage().contains("\"large.txt\""), e.getMessage());
    assertTrue(e.getMessage().contains("--max-war-size"), e.getMessage());
    assertEquals(120, unpack(entries, new WarUnpacker.Limits(120, 10)).toFile().list().length * 60);
  }

  @Test
  void stopsWhenAskedTo() throws Exception {
    Path war = war(Map.of("a.txt", "a"));
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                WarUnpacker.unpack(
                    war, tmp.resolve("stopped"), WarUnpacker.Limits.DEFAULTS, () -> true));
    assertTrue(e.getMessage().contains("shutting down"), e.getMessage());
  }
}
