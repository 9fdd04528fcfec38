package dev.aerun.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/OPTIONS.md's {@code stage} table lists the options {@code stage --help} prints, no other.
 */
class StageOptionsPageTest {
  @Test
  void page_listsEveryOptionOfStageHelp_andNoOther() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(
        0,
        Stage.run(
            new String[] {"--help"},
            null,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err));
    Set<String> help = new TreeSet<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.startsWith("  -")) { // an option, then two spaces before its description
        int gap = line.indexOf("  ", 2);
        help.add((gap < 0 ? line.substring(2) : line.substring(2, gap)).trim());
      }
    }
    assertTrue(help.size() >= 2, "stage --help's options were found: " + help);

    List<String> lines = Files.readAllLines(Path.of("..", "docs", "OPTIONS.md"));
    int start = lines.indexOf("## `stage`");
    assertTrue(start >= 0, "docs/OPTIONS.md has a section ## `stage`");
    Set<String> page = new TreeSet<>();
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      if (line.startsWith("| `-")) {
        String cell = line.replace("\\|", "\u0000").split("\\|")[1].trim();
        page.add(cell.substring(1, cell.length() - 1).replace('\u0000', '|'));
      }
    }
    assertEquals(help, page, "docs/OPTIONS.md's stage table against stage --help");
  }
}
