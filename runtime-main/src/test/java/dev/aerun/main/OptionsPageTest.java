package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/OPTIONS.md, {@code --help} and the option parser name the same options, so none of them can
 * drift from the others: an option added to the parser must be in the usage text, and every option
 * of the usage text must be a row of the page (written as the usage text writes it) and the
 * reverse.
 */
class OptionsPageTest {
  static final Path PAGE = Path.of("..", "docs", "OPTIONS.md");

  /** An option line of a usage text: two spaces, the option, then two spaces or the line's end. */
  static Set<String> usageOptions(String usage) {
    Set<String> options = new LinkedHashSet<>();
    for (String line : usage.split("\n")) {
      if (line.startsWith("  -")) {
        int gap = line.indexOf("  ", 2);
        options.add((gap < 0 ? line.substring(2) : line.substring(2, gap)).trim());
      }
    }
    return options;
  }

  /**
   * The first cells of the option tables (rows starting with {@code | `-}) in the page's section
   * whose heading is {@code heading}, up to the next section; {@code \|} is read as {@code |}.
   */
  static Set<String> pageOptions(String heading) throws Exception {
    List<String> lines = Files.readAllLines(PAGE, StandardCharsets.UTF_8);
    int start = lines.indexOf(heading);
    assertTrue(start >= 0, PAGE + " has no section " + heading);
    Set<String> options = new LinkedHashSet<>();
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      if (line.startsWith("| `-")) {
        String cell = line.replace("\\|", "\u0000").split("\\|")[1].trim();
        assertTrue(
            cell.startsWith("`") && cell.endsWith("`") && cell.indexOf('`', 1) == cell.length() - 1,
            "one code span per option cell, as --help writes it: " + line);
        options.add(cell.substring(1, cell.length() - 1).replace('\u0000', '|'));
      }
    }
    return options;
  }

  private static String help() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        Launcher.run(
            Map.of(),
            Map.of(),
            new String[] {"--help"},
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void page_listsEveryOptionOfHelp_andNoOther() throws Exception {
    Set<String> help = usageOptions(help());
    assertTrue(help.size() > 20, "the usage text's options were found: " + help);
    Set<String> page = pageOptions("## Options");
    Set<String> missing = new TreeSet<>(help);
    missing.removeAll(page);
    Set<String> extra = new TreeSet<>(page);
    extra.removeAll(help);
    assertTrue(
        missing.isEmpty() && extra.isEmpty(),
        PAGE + " disagrees with --help: rows to add " + missing + ", rows to remove " + extra);
  }

  @Test
  void everyOptionOfHelp_isKnownToTheParser() {
    for (String syntax : usageOptions(help())) {
      String[] words = syntax.replace(",", "").split(" ");
      for (String option : words) {
        if (!option.startsWith("-")) {
          continue;
        }
        List<String> args = new ArrayList<>(List.of(option));
        if (words.length > 1 && !words[words.length - 1].startsWith("-")) {
          args.add("x"); // a value: a wrong one is a usage error, but not an unknown option
        }
        args.add("app");
        try {
          LaunchOptions.parse(Map.of(), Map.of(), args.toArray(String[]::new));
        } catch (UsageException e) {
          if (e.getMessage().startsWith("unknown option")) {
            fail("--help shows " + option + ", which the parser does not know: " + e.getMessage());
          }
        } catch (Exception e) {
          // Known, and refused for another reason (a value, a missing app): not what this checks.
        }
      }
    }
  }

  @Test
  void everyOptionTheParserReads_isInHelp() throws Exception {
    String parser =
        Files.readString(Path.of("src/main/java/dev/aerun/main/LaunchOptionsParser.java"));
    Set<String> helpWords = new TreeSet<>();
    for (String syntax : usageOptions(help())) {
      for (String word : syntax.replace(",", "").split(" ")) {
        helpWords.add(word);
      }
    }
    Matcher cases = Pattern.compile("case (\"-[^:>]*?) ->").matcher(parser);
    Set<String> read = new TreeSet<>();
    while (cases.find()) {
      Matcher names = Pattern.compile("\"(-[a-z0-9-]+)\"").matcher(cases.group(1));
      while (names.find()) {
        read.add(names.group(1));
      }
    }
    assertTrue(read.size() > 20, "the parser's options were found: " + read);
    read.removeAll(helpWords);
    assertTrue(read.isEmpty(), "the parser reads options --help does not show: " + read);
  }
}
